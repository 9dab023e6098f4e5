// Which of a run's tools `zot mcp serve` offers, and how zot's tool shapes map to MCP's: a Tool
// becomes a tools/list entry, a tool outcome a CallToolResult. Tools that wait for a person
// (interactive extension tools) are never offered: an MCP client cannot show their panel.
import type { Tool, ToolContent } from "../../tools/types.ts";

export interface ServeToolSelection {
  /** `--tools a,b`: only these names (built-in or extension tools); absent: every tool. */
  only?: string[];
  /** `--no-builtins`: no built-in tools. */
  builtins: boolean;
  /** `--no-extension-tools`: no extension tools (extensions still load, guard and observe). */
  extensionTools: boolean;
}

/** The tools offered now, from the session's active tools (built-ins first, shadowing applied). */
export function offeredTools(active: ReadonlyMap<string, Tool>, selection: ServeToolSelection): Tool[] {
  return [...active.values()].filter((tool) => {
    if (tool.interactive) return false;
    if (tool.source.kind === "builtin" ? !selection.builtins : !selection.extensionTools) return false;
    return !selection.only || selection.only.includes(tool.name);
  });
}

/** Names in `--tools` that no offerable tool has (a usage error once the extensions are up). */
export function unmatchedToolNames(active: ReadonlyMap<string, Tool>, selection: ServeToolSelection): string[] {
  const offered = new Set(offeredTools(active, { ...selection, only: undefined }).map((t) => t.name));
  return (selection.only ?? []).filter((name) => !offered.has(name));
}

/** A tools/list entry. MCP wants an object schema at the top; a tool without one takes any object. */
export function mcpToolOf(tool: Tool): { name: string; description: string; inputSchema: { type: "object"; [key: string]: unknown } } {
  const schema = tool.schema as Record<string, unknown> | undefined;
  const inputSchema = schema && schema.type === "object" ? (schema as { type: "object" }) : { type: "object" as const };
  return { name: tool.name, description: tool.description, inputSchema };
}

export type McpContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** zot blocks → MCP content blocks (text stays text, images keep their base64 bytes). */
export function mcpContentOf(content: readonly ToolContent[]): McpContent[] {
  return content.map((block) => block.type === "text"
    ? { type: "text", text: block.text }
    : { type: "image", data: block.data, mimeType: block.mime_type });
}

/** A signature of the offered list, to tell when `notifications/tools/list_changed` is due. */
export function toolListSignature(tools: readonly Tool[]): string {
  return JSON.stringify(tools.map((t) => [t.name, t.description, t.schema]));
}
