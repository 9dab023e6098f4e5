// What installing a Claude Code plugin will run, shown before the question (one phrase a line):
// each hook's event and command, each MCP server's command, and the programs of its bin/ folder.
import { readdirSync } from "node:fs";
import { parseHooks } from "../../extensions/catalog/hook-settings.ts";
import type { Manifest } from "../../extensions/catalog/manifest.ts";
import { loadPlugin } from "../../extensions/catalog/plugin-manifest.ts";
import { isJsonObject } from "../../protocol/index.ts";

export function pluginRunLines(manifest: Manifest, dir: string): string[] {
  const lines: string[] = [];
  for (const hook of parseHooks(manifest.hooks ?? {}, dir).hooks) {
    lines.push(`runs hook ${hook.event}${hook.matcher ? ` [${hook.matcher}]` : ""}: ${hook.command}`);
  }
  let parts;
  try {
    parts = loadPlugin(dir).parts;
  } catch {
    return lines;
  }
  for (const [name, server] of Object.entries(parts.mcpServers)) {
    const command = isJsonObject(server) ? (typeof server.url === "string" ? server.url
      : [server.command, ...(Array.isArray(server.args) ? server.args : [])].filter((p) => typeof p === "string").join(" ")) : "";
    lines.push(`runs MCP server ${name}: ${command}`);
  }
  if (parts.bin) {
    for (const program of readdirSync(parts.bin).sort()) lines.push(`puts bin/${program} on the bash tool's PATH`);
  }
  if (parts.commands.length) lines.push("its commands may run the shell commands their allowed-tools permit");
  return lines;
}
