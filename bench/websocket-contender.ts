// The WebSocket contender: zot's real extension host with the echo extension at a loopback URL.
// The server is a long-running service (started once, outside every timing), as a team's shared
// extension is; a cold start is the host's start, the connect and handshake, and the first call.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures, hostSession, NODE, type Contender } from "./contenders.ts";

export interface WebSocketContender extends Contender {
  /** Stops the server. */
  stop(): void;
}

export async function zotWebSocket(home: string): Promise<WebSocketContender> {
  const server: ChildProcess = spawn(NODE, [join(fixtures, "ws-echo-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.on("data", (d: Buffer) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    server.on("exit", (code) => reject(new Error(`the WebSocket echo server exited (${code})`)));
  });
  const dir = join(home, "ws-echo");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "echo", version: "1.0.0", url: `ws://127.0.0.1:${port}/` }));
  return {
    label: "zot WebSocket extension",
    start: () => hostSession(home, dir, (t) => t.name === "echo", (reports) => new Error(`the WebSocket echo extension did not load: ${reports}`)),
    stop: () => void server.kill(),
  };
}
