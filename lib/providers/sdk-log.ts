// The provider SDKs' own output, routed to zot instead of the terminal: their logger option,
// and the warnings they print with console.warn while building a request (the Anthropic SDK
// warns about deprecated models that way, on every request). They log plain strings, with an
// object of request details or an error at debug level: a small formatter is enough, and it
// keeps node:util's format (which loads util.inspect) off every run's start.
import { writeStderr } from "../std-output.ts";

/** Receives one SDK message, on one line. */
export type SdkWarn = (message: string) => void;

/** Where SDK output goes when nobody routes it: stderr, never a protocol stdout. */
export const stderrWarn: SdkWarn = (message) => writeStderr(`zot: warning: ${message}\n`);

export interface SdkLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** A logger for the SDKs' `logger` option (they filter by their own `logLevel` first). */
export function sdkLogger(warn: SdkWarn): SdkLogger {
  const line = (...args: unknown[]) => warn(oneLine(args));
  return { debug: line, info: line, warn: line, error: line };
}

/**
 * Runs `build` with console.warn routed to `warn`. `build` must be synchronous: only what it
 * prints before returning is captured (the SDKs warn before their first await).
 */
export function routingConsoleWarn<T>(warn: SdkWarn, build: () => T): T {
  const original = console.warn;
  console.warn = (...args: unknown[]) => warn(oneLine(args));
  try {
    return build();
  } finally {
    console.warn = original;
  }
}

function oneLine(args: unknown[]): string {
  return args.map(text).join(" ").replace(/\s*\n\s*/g, " ").trim();
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value); // a cycle
  }
}
