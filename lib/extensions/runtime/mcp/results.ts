// An MCP tools/call result → zot's tool outcome: text and images as they are, embedded resources
// and resource links as text naming their URI, structuredContent as JSON text when the server sent
// no text block, isError → is_error. Audio and unknown blocks become a text note (no zot block).
import type { ToolContent, ToolOutcome } from "../../../tools/types.ts";

/** The part of CallToolResult the bridge reads (a type of its own keeps the SDK out of start-up). */
export interface McpToolResult {
  content?: Array<Record<string, unknown>>;
  structuredContent?: unknown;
  isError?: boolean;
  /** Pre-2024-11 servers answer with `toolResult`. */
  toolResult?: unknown;
}

function resourceText(resource: Record<string, unknown>): string {
  const uri = String(resource.uri ?? "");
  const mime = typeof resource.mimeType === "string" ? ` (${resource.mimeType})` : "";
  if (typeof resource.text === "string") return `resource ${uri}${mime}:\n${resource.text}`;
  if (typeof resource.blob === "string") return `resource ${uri}${mime}: binary, ${Math.floor((resource.blob.length * 3) / 4)} bytes`;
  return `resource ${uri}${mime}`;
}

function mapBlock(block: Record<string, unknown>): ToolContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: String(block.text ?? "") };
    case "image":
      return { type: "image", mime_type: String(block.mimeType ?? "image/png"), data: String(block.data ?? "") };
    case "resource":
      return { type: "text", text: resourceText((block.resource ?? {}) as Record<string, unknown>) };
    case "resource_link": {
      const name = typeof block.name === "string" && block.name !== block.uri ? ` (${block.name})` : "";
      const description = typeof block.description === "string" ? `: ${block.description}` : "";
      return { type: "text", text: `resource link ${String(block.uri ?? "")}${name}${description}` };
    }
    default:
      return { type: "text", text: `[${String(block.type)} content omitted: zot has no ${String(block.type)} block]` };
  }
}

export function mapToolResult(result: McpToolResult): ToolOutcome {
  const content = (result.content ?? []).map(mapBlock);
  if (result.structuredContent !== undefined && !(result.content ?? []).some((b) => b.type === "text")) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  if (result.content === undefined && result.toolResult !== undefined) content.push({ type: "text", text: JSON.stringify(result.toolResult) });
  const isError = result.isError === true;
  return { content, isError, status: isError ? "failed" : "completed" };
}
