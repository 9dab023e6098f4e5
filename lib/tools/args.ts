// Argument readers for tool calls. Models send loosely typed JSON, so each reader either returns
// a usable value or throws a ToolFailure that names the argument and the expected shape.
import { ToolFailure } from "./failure.ts";

export function requireString(tool: string, args: Record<string, unknown>, key: string, hint: string): string {
  const value = args[key];
  if (typeof value !== "string") {
    const got = value === undefined ? "it is missing" : `got ${describeType(value)}`;
    throw new ToolFailure(`${tool}: \`${key}\` must be a string (${hint}); ${got}.`);
  }
  return value;
}

/** A positive integer; numeric strings such as "10" are accepted because models send them. */
export function optionalPositiveInt(tool: string, args: Record<string, unknown>, key: string, hint: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
    throw new ToolFailure(`${tool}: \`${key}\` must be a positive whole number (${hint}); got ${JSON.stringify(value)}.`);
  }
  return n;
}

/** A positive number (fractions allowed), with the same string leniency. */
export function optionalPositiveNumber(tool: string, args: Record<string, unknown>, key: string, hint: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) {
    throw new ToolFailure(`${tool}: \`${key}\` must be a positive number (${hint}); got ${JSON.stringify(value)}.`);
  }
  return n;
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
