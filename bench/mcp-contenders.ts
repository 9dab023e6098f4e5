// The two MCP ways zot runs the benchmark's `echo` tool, beside contenders.ts's three:
// - the bridge: the SDK echo server loaded as an MCP extension (an `mcp` manifest) by zot's real
//   extension host, called through the host's tool path like the native echo extension;
// - `zot mcp serve`: an MCP client calling the native echo extension through zot serving it.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fixtures, hostSession, mcpClientSession, NODE, type Contender } from "./contenders.ts";

const root = resolve(import.meta.dirname, "..");

/** Thrown when this build's host does not load MCP extensions (the row is then left out). */
export class BridgeUnavailable extends Error {}

/** zot's extension host with the SDK echo server as an MCP extension. */
export function zotMcpBridge(home: string): Contender {
  const dir = join(home, "bridge", "mcpecho");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({
    name: "mcpecho", version: "1.0.0", mcp: { command: NODE, args: [join(fixtures, "mcp-echo-server.mjs")] },
  }));
  return {
    label: "zot MCP bridge",
    // The bridged name is the bridge's to choose (prefixed by default): found by its extension.
    start: () => hostSession(home, dir, (t) => t.source.kind === "extension" && t.source.extension === "mcpecho",
      (reports) => new BridgeUnavailable(`the MCP echo extension offered no tool: ${reports}`)),
  };
}

/** How to run zot: the Node bundle when it is built, else the sources under this bun. */
export function zotCommand(): { command: string; args: string[]; describe: string } {
  const bundle = join(root, "dist", "zot.mjs");
  if (existsSync(bundle)) return { command: NODE, args: [bundle], describe: `${NODE} dist/zot.mjs` };
  if (process.versions.bun) return { command: process.execPath, args: [join(root, "bin", "zot.ts")], describe: "bun bin/zot.ts" };
  throw new Error("build dist/zot.mjs first (bun build.ts --node-only), or run the benchmark under bun");
}

/** An MCP SDK client calling the native echo extension through `zot mcp serve`. */
export function zotMcpServe(home: string): Contender {
  const zot = zotCommand();
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: home, ZOT_HOME: join(home, "serve-home") };
  return {
    label: "MCP SDK → zot mcp serve",
    start: () => mcpClientSession({
      command: zot.command,
      args: [...zot.args, "mcp", "serve", "--no-ext", "-e", join(fixtures, "echo"), "--tools", "echo", "--cwd", home],
      env,
    }, false),
  };
}
