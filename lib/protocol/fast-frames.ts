// Hand-written checks for the commonest inbound frame shapes, run before valibot: a tool_result
// with text blocks arrives once per tool call, and validating it with the full schema is a large
// part of the host's per-call cost. A check accepts only values the schema would accept with
// the same output: exactly the schema's keys, in the schema's order (valibot's output order), so
// the parsed value can be used as is. Anything else falls through to the schema, which also
// writes the error messages.

/** The keys of ToolResultSchema, in its order. */
const TOOL_RESULT_KEYS: Readonly<Record<string, number>> = { type: 0, id: 1, content: 2, is_error: 3, activate_tools: 4, truncated: 5 };

function isTextBlock(block: unknown): boolean {
  if (block === null || typeof block !== "object" || Object.getPrototypeOf(block) !== Object.prototype) return false;
  let count = 0;
  for (const key in block) {
    if (key !== (count === 0 ? "type" : "text") || ++count > 2) return false;
  }
  const b = block as { type: unknown; text: unknown };
  return count === 2 && b.type === "text" && typeof b.text === "string";
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** A tool_result of text blocks that ToolResultSchema accepts and outputs unchanged. */
function isPlainToolResult(record: Record<string, unknown>): boolean {
  let last = -1;
  for (const key in record) {
    const index = TOOL_RESULT_KEYS[key];
    if (index === undefined || index <= last || !Object.hasOwn(TOOL_RESULT_KEYS, key)) return false;
    last = index;
    const value = record[key];
    switch (key) {
      case "id":
        if (typeof value !== "string" || value.length === 0) return false;
        break;
      case "content":
        if (!Array.isArray(value) || !value.every(isTextBlock)) return false;
        break;
      case "is_error":
      case "truncated":
        if (typeof value !== "boolean") return false;
        break;
      case "activate_tools":
        if (!isStringArray(value)) return false;
        break;
    }
  }
  return record.type === "tool_result" && typeof record.id === "string";
}

/** Per frame type, a check that the parsed record is valid as it stands. */
export const FAST_EXTENSION_FRAME_CHECKS: ReadonlyMap<string, (record: Record<string, unknown>) => boolean> =
  new Map([["tool_result", isPlainToolResult]]);
