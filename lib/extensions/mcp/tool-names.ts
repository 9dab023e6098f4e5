// What a bridged MCP tool is called in zot: `<extension>_<tool>` by default, so two servers'
// `search` tools do not collide, sanitized to the providers' rule (^[a-zA-Z0-9_-]{1,64}$).
import { createHash } from "node:crypto";

const MAX_NAME = 64;

/** Replaces every character a provider refuses with `_`, and keeps at most 64 characters. */
export function sanitizeToolName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, "_") || "_";
  if (clean.length <= MAX_NAME) return clean;
  // Cut, with a short hash of the whole name so two long names that share a start stay apart.
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${clean.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** The zot name of server tool `tool` of extension `extension`. */
export function bridgedToolName(extension: string, tool: string, prefix: boolean): string {
  return sanitizeToolName(prefix ? `${extension}_${tool}` : tool);
}
