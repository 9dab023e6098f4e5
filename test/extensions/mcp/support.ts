// MCP extensions for the bridge's tests: real third-party servers from the lockfile
// (server-everything, server-filesystem) and tiny Node servers on the SDK, written as
// extension folders whose manifest has an `mcp` object.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "..", "..", "node_modules", ".bin");
export const EVERYTHING = join(BIN, "mcp-server-everything");
export const FILESYSTEM = join(BIN, "mcp-server-filesystem");
export const SDK_SERVER = join(import.meta.dirname, "..", "..", "..", "node_modules", "@modelcontextprotocol", "sdk",
  "dist", "esm", "server", "mcp.js");

/** Writes `<parent>/<folder>/extension.json` with `mcp` and the other manifest fields given. */
export function writeMcpExtension(parent: string, folder: string, mcp: Record<string, unknown>,
  manifest: Record<string, unknown> = {}): string {
  const dir = join(parent, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: folder, mcp, ...manifest }, null, 2));
  return dir;
}

/** The everything server over stdio. */
export const everything = () => ({ command: EVERYTHING, args: ["stdio"] });

/** A Node script in `dir` (an MCP server on the SDK, or one that misbehaves); returns its path. */
export function writeScript(dir: string, name: string, source: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** Source of a stdio MCP server on the SDK with one tool; `extra` runs with `server` and `z` in scope. */
export function sdkServerSource(extra = ""): string {
  return `import { McpServer } from ${JSON.stringify(SDK_SERVER)};
import { StdioServerTransport } from ${JSON.stringify(SDK_SERVER.replace("mcp.js", "stdio.js"))};
const server = new McpServer({ name: "tiny", version: "0.1.0" });
server.registerTool("hello", { description: "says hello" }, async () => ({ content: [{ type: "text", text: "hello" }] }));
${extra}
await server.connect(new StdioServerTransport());
`;
}

/**
 * Source of a Streamable HTTP MCP server on 127.0.0.1 (one session); it prints its URL on stdout
 * and answers tool `whoami` with the Authorization header it received.
 */
export function httpServerSource(): string {
  const sdk = (file: string) => JSON.stringify(SDK_SERVER.replace("mcp.js", file));
  return `import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from ${sdk("mcp.js")};
import { StreamableHTTPServerTransport } from ${sdk("streamableHttp.js")};
const server = new McpServer({ name: "tiny-http", version: "0.2.0" });
server.registerTool("whoami", { description: "echoes the auth header" },
  async (extra) => ({ content: [{ type: "text", text: String(extra.requestInfo?.headers?.authorization ?? "none") }] }));
const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
await server.connect(transport);
const http = createServer((req, res) => void transport.handleRequest(req, res));
http.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + http.address().port + "/mcp"));
`;
}
