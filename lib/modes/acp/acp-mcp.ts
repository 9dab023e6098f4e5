// The MCP servers an editor names in session/new and session/load: each becomes an MCP extension
// folder of that session (a manifest in a private temporary folder), loaded like an `--ext` path,
// since the user named them in the editor. SSE servers are refused: zot speaks stdio and
// Streamable HTTP.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { extensionNameProblem } from "../../extensions/catalog/names.ts";

export interface EditorServers {
  /** Folders to load as explicit extensions. */
  dirs: string[];
  /** Servers that could not be used, and why. */
  problems: string[];
  remove(): void;
}

export function editorServers(servers: readonly acp.McpServer[]): EditorServers {
  const problems: string[] = [];
  if (servers.length === 0) return { dirs: [], problems, remove() {} };
  const root = mkdtempSync(join(tmpdir(), "zot-acp-mcp-"));
  const dirs: string[] = [];
  for (const [i, server] of servers.entries()) {
    const invalid = extensionNameProblem(server.name);
    if (invalid) {
      problems.push(`MCP server "${server.name}": its name ${invalid}`);
      continue;
    }
    let mcp: Record<string, unknown>;
    if ("type" in server && server.type === "sse") {
      problems.push(`MCP server "${server.name}": SSE is not supported (zot speaks stdio and Streamable HTTP)`);
      continue;
    } else if ("url" in server) {
      mcp = { url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) };
    } else {
      mcp = { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((e) => [e.name, e.value])) };
    }
    const dir = join(root, String(i));
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: server.name, mcp }), { mode: 0o600 });
    dirs.push(dir);
  }
  return { dirs, problems, remove: () => rmSync(root, { recursive: true, force: true }) };
}
