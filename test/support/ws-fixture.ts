// The WebSocket extension fixture server (test/fixtures/extensions/ws-server) in its own process,
// for the tests of URL extensions: started on a port (0: any free one) with its options, resolved
// once it listens; its stderr records the frames it received ("got <type>").
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { waitForOutput } from "./wait-output.ts";

export const WS_SERVER = join(import.meta.dirname, "..", "fixtures", "extensions", "ws-server", "server.mjs");

export interface WsFixture {
  process: ChildProcess;
  port: number;
  stderr(): string;
}

export async function startWsFixture(port = 0, options: Record<string, unknown> = {}): Promise<WsFixture> {
  const child = spawn(process.execPath, [WS_SERVER, String(port), JSON.stringify(options)], { stdio: ["ignore", "pipe", "pipe"] });
  const ready = await waitForOutput(child, "stdout", /port (\d+)/);
  return { process: child, port: Number(ready.match), stderr: ready.stderr };
}
