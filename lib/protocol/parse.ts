// Validates one decoded frame: dispatch on `type` through a Map to one schema (much cheaper than
// a 16-way valibot variant), then safeParse, unless a fast check (fast-frames.ts) already
// vouches for the parsed line. Never throws.
import * as v from "valibot";
import { EXTENSION_FRAME_SCHEMAS, type ExtensionFrame } from "./extension-frames.ts";
import { HOST_FRAME_SCHEMAS, type HostFrame } from "./host-frames.ts";
import { FAST_EXTENSION_FRAME_CHECKS } from "./fast-frames.ts";
import { describeIssues } from "./issues.ts";

export type ParseResult<F> =
  | { ok: true; frame: F }
  | {
      ok: false;
      error: string;
      /** The frame's `type` and `id` when readable, so a reply can still be failed by id. */
      type?: string;
      id?: string;
      /** True when the JSON was fine but its `type` is not one this side knows. */
      unknownType?: boolean;
    };

type AnySchema = v.GenericSchema<unknown, unknown>;

type FastCheck = (record: Record<string, unknown>) => boolean;

function makeParser<F>(schemas: Record<string, AnySchema>, fast: ReadonlyMap<string, FastCheck> = new Map()): (input: unknown) => ParseResult<F> {
  const table = new Map<string, AnySchema>(Object.entries(schemas));
  return (input) => {
    let value = input;
    if (typeof input === "string") {
      try {
        value = JSON.parse(input);
      } catch (err) {
        return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
      }
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, error: "a frame must be a JSON object" };
    }
    const record = value as Record<string, unknown>;
    const type = record.type;
    const id = typeof record.id === "string" ? record.id : undefined;
    if (typeof type !== "string") return { ok: false, error: "type: a frame needs a string type", id };
    const schema = table.get(type);
    if (!schema) return { ok: false, error: `unknown frame type "${type}"`, type, id, unknownType: true };
    // A fresh JSON.parse result that passes its fast check is what the schema would output.
    if (value !== input && fast.get(type)?.(record)) return { ok: true, frame: record as F };
    const result = v.safeParse(schema, record);
    if (!result.success) return { ok: false, error: `${type}: ${describeIssues(result.issues)}`, type, id };
    return { ok: true, frame: result.output as F };
  };
}

/** Parses a frame sent by an extension (a JSON line or an already-parsed value). */
export const parseExtensionFrame = makeParser<ExtensionFrame>(EXTENSION_FRAME_SCHEMAS, FAST_EXTENSION_FRAME_CHECKS);

/** Parses a frame sent by the host (used by SDKs). */
export const parseHostFrame = makeParser<HostFrame>(HOST_FRAME_SCHEMAS);
