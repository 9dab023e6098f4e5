// `zot mcp add` (and `zot ext add-url`): an extension folder holding only its extension.json,
// written into the project or global extensions root. Validated as discovery will read it before anything is written.
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { checkManifest, MANIFEST_FILE } from "../catalog/manifest.ts";
import type { McpServerConfig } from "../catalog/manifest-mcp.ts";

export const MCP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface McpAddRequest {
  name: string;
  server: McpServerConfig;
  /** false keeps the server's tool names (no `<name>_` prefix). */
  prefix?: boolean;
  description?: string;
}

/** Writes `<root>/<name>/extension.json`; returns the folder. Throws when the name is taken or invalid. */
export async function addMcpExtension(root: string, request: McpAddRequest): Promise<string> {
  if (!MCP_NAME_PATTERN.test(request.name)) {
    throw new Error(`invalid name "${request.name}": use letters, digits, ".", "_" and "-", starting with a letter or digit`);
  }
  const manifest = {
    name: request.name,
    description: request.description ?? `MCP server ${request.name}`,
    mcp: request.server,
    ...(request.prefix === false ? { prefix: false } : {}),
  };
  return writeManifestFolder(root, manifest, `zot mcp remove ${request.name}`);
}

/**
 * Writes `<root>/<name>/extension.json` holding `manifest`, checked as discovery will read it
 * first; returns the folder. Throws when the folder exists (`removeHint` says how to free it).
 */
export async function writeManifestFolder(root: string, manifest: { name: string } & Record<string, unknown>, removeHint: string): Promise<string> {
  const dir = join(root, manifest.name);
  if (existsSync(dir)) throw new Error(`${dir} already exists: remove it first (\`${removeHint}\`)`);
  checkManifest(dir, manifest, false); // throws ManifestError with the problem
  await mkdir(dir, { recursive: true });
  try {
    await writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return dir;
}
