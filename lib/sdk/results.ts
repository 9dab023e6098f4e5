// What a tool handler returns: content blocks for the model, an error flag, and the deferred
// tools this result activates.
import type { ContentBlock } from "../protocol/index.ts";
import { describeValue } from "./responses.ts";
import type { JsonObject } from "./types.ts";

export interface ToolResult {
  content: ContentBlock[];
  /** Marks the call as failed; the model sees the content as the error. */
  isError?: boolean;
  /** Registered deferred tools that become available after this result. */
  activateTools?: string[];
}

/** One text block, success. */
export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

/** One text block, marked as an error to the model. */
export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** One image block; `data` is base64 (encode bytes with `Buffer.from(bytes).toString("base64")`). */
export function imageResult(data: string, mimeType: string, caption?: string): ToolResult {
  const image: ContentBlock = { type: "image", mime_type: mimeType, data };
  return { content: caption === undefined ? [image] : [{ type: "text", text: caption }, image] };
}

/** `result` (default: a short text naming the tools) that also activates the deferred `names`. */
export function activateTools(names: string[], result: ToolResult = textResult(`Activated: ${names.join(", ")}`)): ToolResult {
  return { ...result, activateTools: [...(result.activateTools ?? []), ...names] };
}

/** The wire frame for a handler's return value: a ToolResult, or a string (one text block).
 * Throws a TypeError for anything else. */
export function toolResultFrame(id: string, value: unknown): { type: "tool_result" } & JsonObject {
  const result = typeof value === "string" ? textResult(value) : value;
  if (result === null || typeof result !== "object" || !Array.isArray((result as ToolResult).content)) {
    throw new TypeError(
      `returned ${describeValue(value)} without a content array; return textResult(), errorResult(), imageResult() or a string`,
    );
  }
  const r = result as ToolResult;
  return {
    type: "tool_result",
    id,
    content: r.content,
    ...(r.isError ? { is_error: true } : {}),
    ...(r.activateTools && r.activateTools.length > 0 ? { activate_tools: r.activateTools } : {}),
  };
}
