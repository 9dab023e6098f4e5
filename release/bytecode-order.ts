// Profile-guided layout for the compiled binary (`bun build --bytecode-order`): a first build is
// run the ways zot usually starts, each run records which functions it used, and the real build
// puts that bytecode together at the front of the executable, so fewer pages are read and kept.
// The runs talk to a loopback server that streams one canned Messages reply.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** The starts recorded, most common first (bun gives the first file the most weight). */
const STARTS: readonly { name: string; args: string[] }[] = [
  { name: "json", args: ["--mode", "json", "--no-session", "review this"] },
  { name: "print", args: ["-p", "--no-session", "review this"] },
  { name: "version", args: ["--version"] },
];

const REPLY_EVENTS = [
  { type: "message_start", message: { id: "msg_order", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [],
    stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "all good" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
  { type: "message_stop" },
];

function startReplyServer(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(REPLY_EVENTS.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
    });
  });
  return new Promise((ready, fail) => server.once("error", fail).listen(0, "127.0.0.1", () => ready(server)));
}

function runOnce(binary: string, args: string[], env: Record<string, string>, cwd: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"], timeout: 30_000 });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code, signal) => (code === 0 ? done() : fail(new Error(`zot ${args.join(" ")} ended with ${code ?? signal}: ${stderr.trim()}`))));
  });
}

/** Runs `binary` (built for this machine) once per start; returns the order files it wrote in `work`. */
export async function recordBytecodeOrder(binary: string, work: string): Promise<string[]> {
  const server = await startReplyServer();
  try {
    const files: string[] = [];
    for (const start of STARTS) {
      const home = join(work, start.name);
      mkdirSync(home);
      const file = join(work, `${start.name}.order`);
      await runOnce(binary, start.args, {
        PATH: process.env.PATH ?? "", HOME: home, ZOT_HOME: home, ZOT_PROVIDER: "anthropic",
        ZOT_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, BUN_BYTECODE_ORDER_OUT: file,
      }, home);
      if (!existsSync(file)) throw new Error(`zot ${start.args.join(" ")} wrote no bytecode order`);
      files.push(file);
    }
    return files;
  } finally {
    server.close();
  }
}
