import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ToolResultSchema } from "../../lib/protocol/extension-frames.ts";
import { FAST_EXTENSION_FRAME_CHECKS } from "../../lib/protocol/fast-frames.ts";
import { parseExtensionFrame } from "../../lib/protocol/index.ts";

/** What the schema alone makes of a line: the reference the fast path must match exactly. */
function bySchema(line: string) {
  const result = v.safeParse(ToolResultSchema, JSON.parse(line));
  return result.success ? { ok: true, json: JSON.stringify(result.output) } : { ok: false };
}

const fastCheck = FAST_EXTENSION_FRAME_CHECKS.get("tool_result")!;

const lines = [
  // Taken by the fast path.
  '{"type":"tool_result","id":"t-1","content":[{"type":"text","text":"hi"}]}',
  '{"type":"tool_result","id":"t-1","content":[],"is_error":true,"activate_tools":["a"],"truncated":false}',
  '{"type":"tool_result","id":"t-1"}',
  // Left to the schema: other keys, other order, other blocks, or invalid.
  '{"type":"tool_result","content":[{"type":"text","text":"hi"}],"id":"t-1"}',
  '{"type":"tool_result","id":"t-1","extra":1}',
  '{"type":"tool_result","id":"t-1","content":[{"text":"hi","type":"text"}]}',
  '{"type":"tool_result","id":"t-1","content":[{"type":"image","mime_type":"image/png","data":"AA=="}]}',
  '{"type":"tool_result","id":"t-1","content":[{"type":"text","text":"hi","__proto__":{"x":1}}]}',
  '{"type":"tool_result","id":"t-1","__proto__":{"is_error":true}}',
  '{"type":"tool_result","id":"t-1","constructor":1}',
  '{"type":"tool_result","id":""}',
  '{"type":"tool_result","id":"t-1","content":[{"type":"text","text":3}]}',
  '{"type":"tool_result","id":"t-1","is_error":"yes"}',
  '{"type":"tool_result","id":"t-1","activate_tools":[1]}',
  '{"type":"tool_result","id":"t-1","content":{}}',
];

describe("Validation fast path: tool_result", () => {
  it("parses every tool_result exactly as the schema does, key order included", () => {
    for (const line of lines) {
      const parsed = parseExtensionFrame(line);
      const expected = bySchema(line);
      expect({ line, ok: parsed.ok }).toEqual({ line, ok: expected.ok });
      if (parsed.ok) expect(JSON.stringify(parsed.frame)).toBe(expected.json);
    }
  });

  it("vouches only for frames the schema accepts unchanged", () => {
    const taken = lines.filter((line) => fastCheck(JSON.parse(line) as Record<string, unknown>));
    expect(taken).toEqual(lines.slice(0, 3));
    for (const line of taken) expect(JSON.stringify(JSON.parse(line))).toBe(bySchema(line).json);
  });

  it("an invalid tool_result still gets the schema's error message", () => {
    const parsed = parseExtensionFrame('{"type":"tool_result","id":"t-1","content":[{"type":"text","text":3}]}');
    expect(parsed).toMatchObject({ ok: false, type: "tool_result", id: "t-1", error: expect.stringMatching(/^tool_result: .*text must be a string/) });
  });
});
