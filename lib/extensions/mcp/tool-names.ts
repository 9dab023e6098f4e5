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

/** 8 hex digits of FNV-1a: enough to tell cut names apart, and no node:crypto on the start path. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
