import { describe, expect, it } from "vitest";
import {
  EXTENSION_FRAME_SCHEMAS,
  HOST_FRAME_SCHEMAS,
  parseExtensionFrame,
  parseHostFrame,
} from "../../lib/protocol/index.ts";
import { SPEC_EXAMPLES } from "./spec-examples.ts";

type Entries = Record<string, { type: string }>;
const schemaOf = (direction: "extension" | "host", type: string) =>
  ((direction === "extension" ? EXTENSION_FRAME_SCHEMAS : HOST_FRAME_SCHEMAS) as Record<string, { entries: Entries }>)[type]!;
const parse = (direction: "extension" | "host", value: unknown) =>
  direction === "extension" ? parseExtensionFrame(value) : parseHostFrame(value);

/** Fields a schema requires besides `type`. */
function requiredFields(direction: "extension" | "host", type: string): string[] {
  const entries = schemaOf(direction, type).entries;
  return Object.keys(entries).filter((k) => k !== "type" && entries[k]!.type !== "optional");
}

describe("wire format: every frame example of the spec", () => {
  it("covers every frame type of both directions", () => {
    const seen = new Set(SPEC_EXAMPLES.map((e) => `${e.direction}:${e.frame.type}`));
    for (const t of Object.keys(EXTENSION_FRAME_SCHEMAS)) expect(seen).toContain(`extension:${t}`);
    for (const t of Object.keys(HOST_FRAME_SCHEMAS)) expect(seen).toContain(`host:${t}`);
  });

  it.each(SPEC_EXAMPLES.map((e, i) => [i, e.direction, e.frame.type, e] as const))(
    "example %i (%s %s) parses, also as a JSON line",
    (_i, direction, _type, { frame }) => {
      const result = parse(direction, frame);
      expect(result).toEqual({ ok: true, frame: expect.objectContaining(frame) });
      expect(parse(direction, JSON.stringify(frame)).ok).toBe(true);
    },
  );

  const mutations = SPEC_EXAMPLES.flatMap((e) =>
    requiredFields(e.direction, e.frame.type as string).flatMap((field) => [
      [e.direction, e.frame.type, "missing", field, e.frame] as const,
      [e.direction, e.frame.type, "wrong type", field, e.frame] as const,
    ]),
  );

  it.each(mutations)("%s %s with %s %s is rejected naming the field", (direction, _type, how, field, frame) => {
    const copy: Record<string, unknown> = structuredClone(frame);
    if (how === "missing") delete copy[field];
    else copy[field] = [];
    const result = parse(direction, copy);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(new RegExp(`\\b${field}\\b`));
  });

  /** Fields of an example its schema constrains (not `unknown`, not tolerated extras). */
  function checkedFields(direction: "extension" | "host", frame: Record<string, unknown>): string[] {
    const entries = schemaOf(direction, frame.type as string).entries as Record<string, { type: string; wrapped?: { type: string } }>;
    return Object.keys(frame).filter((k) => {
      const schema = entries[k];
      return k !== "type" && schema !== undefined && (schema.wrapped ?? schema).type !== "unknown";
    });
  }

  const wrongValues = SPEC_EXAMPLES.flatMap((e) =>
    checkedFields(e.direction, e.frame).flatMap((field) => {
      const value = e.frame[field];
      const wrong: unknown[] = [typeof value === "string" ? 7 : "wrong", null];
      // A JSON object field must refuse an array, which is also typeof "object".
      if (typeof value === "object" && value !== null && !Array.isArray(value)) wrong.push([]);
      return wrong.map((bad) => [e.direction, e.frame.type, field, JSON.stringify(bad), e.frame, bad] as const);
    }),
  );

  it.each(wrongValues)("%s %s with %s set to %s is rejected naming the field", (direction, _type, field, _shown, frame, bad) => {
    const result = parse(direction, { ...structuredClone(frame), [field]: bad });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(new RegExp(`\\b${field}\\b`));
  });

  it("args and tool_args must be JSON objects, not arrays", () => {
    expect(parseHostFrame({ type: "tool_call", id: "1", name: "t", args: [1] }))
      .toMatchObject({ ok: false, error: "tool_call: args: args must be a JSON object", id: "1" });
    expect(parseExtensionFrame({ type: "call_tool", id: "1", name: "read", args: [] }))
      .toMatchObject({ ok: false, error: expect.stringContaining("args must be a JSON object") });
    expect(parseExtensionFrame({ type: "command_response", id: "1", action: "tool_prompt", tool_name: "skill", tool_args: ["x"] }))
      .toMatchObject({ ok: false, error: expect.stringContaining("tool_args must be a JSON object") });
  });

  it("a frame without a string type is rejected naming type", () => {
    for (const value of [{}, { type: 3 }, { type: null }]) {
      const result = parseExtensionFrame(value);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/\btype\b/) });
    }
  });

  it("a nested content block of the wrong shape is rejected naming its path", () => {
    const result = parseExtensionFrame({ type: "tool_result", id: "1", content: [{ type: "text", text: 7 }] });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("content.0.text"), id: "1" });
  });
});

describe("wire format: tolerance", () => {
  it("keeps unknown fields", () => {
    const result = parseExtensionFrame({ type: "hello", name: "x", future_field: { a: 1 } });
    expect(result).toEqual({ ok: true, frame: { type: "hello", name: "x", future_field: { a: 1 } } });
  });

  it("accepts unknown event names in subscribe and event frames", () => {
    expect(parseExtensionFrame({ type: "subscribe", events: ["from_the_future"] }).ok).toBe(true);
    expect(parseHostFrame({ type: "event", event: "from_the_future", extra: 1 }).ok).toBe(true);
  });

  it("an unknown frame type is a diagnostic, not an exception", () => {
    expect(parseExtensionFrame('{"type":"teleport","id":"7"}')).toEqual({
      ok: false, error: 'unknown frame type "teleport"', type: "teleport", id: "7", unknownType: true,
    });
  });

  it("garbage is a diagnostic", () => {
    expect(parseExtensionFrame("not json")).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid JSON/) });
    expect(parseExtensionFrame("[1,2]")).toEqual({ ok: false, error: "a frame must be a JSON object" });
    expect(parseExtensionFrame("null")).toEqual({ ok: false, error: "a frame must be a JSON object" });
  });

  it("every command_response action parses and an unknown one is rejected naming action", () => {
    for (const action of ["prompt", "tool_prompt", "insert", "display", "open_panel", "noop"]) {
      expect(parseExtensionFrame({ type: "command_response", id: "1", action }).ok).toBe(true);
    }
    expect(parseExtensionFrame({ type: "command_response", id: "1", action: "dance" }))
      .toMatchObject({ ok: false, error: expect.stringContaining("action") });
  });

  it("applies the host-frame defaults SDKs rely on", () => {
    expect(parseHostFrame({ type: "tool_call", id: "1", name: "t" })).toEqual({
      ok: true, frame: { type: "tool_call", id: "1", name: "t", args: {} },
    });
    expect(parseHostFrame({ type: "command_invoked", id: "1", name: "c" })).toEqual({
      ok: true, frame: { type: "command_invoked", id: "1", name: "c", args: "" },
    });
  });
});
