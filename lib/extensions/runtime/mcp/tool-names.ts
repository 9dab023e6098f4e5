// What a bridged MCP tool is called in zot: `<extension>_<tool>` by default, so two servers'
// `search` tools do not collide, sanitized to the providers' rule (^[a-zA-Z0-9_-]{1,64}$).
const MAX_NAME = 64;

/** Replaces every character a provider refuses with `_`, and keeps at most 64 characters. */
export function sanitizeToolName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, "_") || "_";
  if (clean.length <= MAX_NAME) return clean;
  // Cut, with a short hash of the whole name so two long names that share a start stay apart.
  const hash = fnv1a(name);
  return `${clean.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** The zot name of server tool `tool` of extension `extension`. */
export function bridgedToolName(extension: string, tool: string, prefix: boolean): string {
  return sanitizeToolName(prefix ? `${extension}_${tool}` : tool);
}

/**
 * The zot names of one server's tools, by server name. Two tools whose names sanitize to the
 * same name (`my.tool` and `my_tool`) must not share it: a name that sanitizing changed gets a
 * stable suffix from the server's own name (`my_tool_1b2c3d4e`) when it meets another, and one
 * that needed no change keeps it.
 */
export function bridgedToolNames(extension: string, tools: readonly string[], prefix: boolean): Map<string, string> {
  const plain = new Map(tools.map((tool) => [tool, bridgedToolName(extension, tool, prefix)]));
  const count = new Map<string, number>();
  for (const name of plain.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const [tool, name] of plain) {
    const unchanged = name === (prefix ? `${extension}_${tool}` : tool);
    if (count.get(name)! > 1 && !unchanged) {
      const hash = fnv1a(tool);
      names.set(tool, `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`);
    } else names.set(tool, name);
  }
  return names;
}

/** 8 hex digits of FNV-1a: enough to tell cut names apart, and no node:crypto on the start path. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
