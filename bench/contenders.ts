// The first three ways to run one `echo` tool in a child process that the benchmark compares. Each
// contender starts a fresh child per session; every call checks the echoed text, so a protocol
// that answered wrongly could never look fast.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EventBus } from "../lib/agent/event-bus.ts";
import { ExtensionHost } from "../lib/extensions/host/host.ts";
import { pathsUnder } from "../lib/paths.ts";
import type { Tool } from "../lib/tools/types.ts";
import { extensionDrivers } from "../lib/extensions/runtime/drivers.ts";

export const fixtures = join(import.meta.dirname, "fixtures");
/** The runtime of the raw and MCP children (the zot echo extension runs via its node shebang). */
export const NODE = process.env.NODE ?? "node";

/** One running child that answers echo calls. */
export interface Session {
  /** One tool call carrying `call <i>`; rejects unless exactly that text comes back. */
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

export interface Contender {
  label: string;
  /** Spawns the child and does whatever handshake the protocol needs before a call. */
  start(): Promise<Session>;
}

export function expectEcho(i: number, text: unknown): void {
  if (text !== `call ${i}`) throw new Error(`echo ${i} answered ${JSON.stringify(text)}`);
}

/**
 * The floor: a child that reads one JSON line and writes one back, no protocol at all. The lines
 * are shaped and sized like zot's tool_call and tool_result (ids like the host's), so both sides
 * move the same bytes.
 */
export const rawPipe: Contender = {
  label: "raw pipe (floor)",
  async start() {
    const child = spawn(NODE, [join(fixtures, "raw-echo.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
    const pending = new Map<string, (text: unknown) => void>();
    createInterface({ input: child.stdout }).on("line", (line) => {
      const msg = JSON.parse(line) as { id: string; content: Array<{ text?: unknown }> };
      pending.get(msg.id)?.(msg.content[0]?.text);
      pending.delete(msg.id);
    });
    return {
      call: (i) => new Promise<void>((done, fail) => {
        const id = `zot-tool-${i}`;
        pending.set(id, (text) => {
          try {
            expectEcho(i, text);
            done();
          } catch (err) {
            fail(err);
          }
        });
        child.stdin.write(`${JSON.stringify({ type: "tool_call", id, name: "echo", args: { text: `call ${i}` } })}\n`);
      }),
      async close() {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill();
        await exited;
      },
    };
  },
};

/** zot's real extension host running the echo extension (hello → register_tool → ready). */
export function zotHost(home: string): Contender {
  return {
    label: "zot extension host",
    start: () => hostSession(home, join(fixtures, "echo"), (t) => t.name === "echo", (reports) => new Error(`the echo extension did not load: ${reports}`)),
  };
}

/**
 * A real extension host with one extension folder; calls go to the tool `pick` finds, through
 * the host's tool path. `missing` makes the error thrown when there is no such tool.
 */
export async function hostSession(home: string, dir: string, pick: (tool: Tool) => boolean,
  missing: (reports: string) => Error): Promise<Session> {
  const host = await ExtensionHost.start({
    drivers: extensionDrivers, cwd: home, paths: pathsUnder(home), explicit: [dir], discover: false,
    agent: { bus: new EventBus({ id: "bench", cwd: home }), info: () => ({ provider: "none", model: "none" }) },
    interactive: false,
  });
  const tool = host.tools().find(pick);
  if (!tool) {
    const reports = JSON.stringify(host.reports());
    await host.shutdown();
    throw missing(reports);
  }
  const signal = new AbortController().signal;
  return {
    async call(i) {
      const out = await tool.execute({ text: `call ${i}` }, { cwd: home, signal });
      if (out.isError) throw new Error(JSON.stringify(out.content));
      const first = out.content[0];
      expectEcho(i, first?.type === "text" ? first.text : first);
    },
    close: () => host.shutdown(),
  };
}

/**
 * The official MCP SDK: `Client` over `StdioClientTransport` against an `McpServer`.
 * `listTools` adds the tools/list round trip a real host needs before it can offer the tool
 * to a model (zot's handshake already carries the tool list).
 */
export function mcpSdk(options: { listTools: boolean }): Contender {
  return {
    label: options.listTools ? "MCP SDK + tools/list" : "MCP SDK",
    start: () => mcpClientSession({ command: NODE, args: [join(fixtures, "mcp-echo-server.mjs")] }, options.listTools),
  };
}

/** An MCP client session on any stdio MCP server that offers `echo`. */
export async function mcpClientSession(server: { command: string; args: string[]; env?: Record<string, string> },
  listTools: boolean): Promise<Session> {
  const client = new Client({ name: "zot-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...server, stderr: "inherit" }));
  if (listTools) {
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === "echo")) {
      await client.close();
      throw new Error(`${server.command} ${server.args.join(" ")} lists no echo tool`);
    }
  }
  return {
    async call(i) {
      const out = await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
      if (out.isError) throw new Error(JSON.stringify(out.content));
      const first = (out.content as Array<{ type: string; text?: string }>)[0];
      expectEcho(i, first?.type === "text" ? first.text : first);
    },
    close: () => client.close(),
  };
}
