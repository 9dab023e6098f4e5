// The SDK's Transport over a server process zot spawned itself (its own process group, stderr to
// the extension's log, the exit status for diagnostics): newline-delimited JSON-RPC on stdin and
// stdout, as the SDK's own stdio transport frames it. Closing ends stdin, which is how MCP asks a
// stdio server to exit; the extension's shutdown signals it afterwards if it does not.
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ExtensionProcess } from "../host/spawn.ts";

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(private readonly proc: ExtensionProcess, private readonly log: (message: string) => void) {}

  async start(): Promise<void> {
    const { stdout, stdin } = this.proc;
    // A server that died makes writes fail with EPIPE; the exit is reported by the extension.
    stdin.on("error", (err) => this.log(`writing to the server failed: ${err.message}`));
    stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    stdout.once("end", () => this.finish());
    stdout.once("close", () => this.finish());
  }

  private receive(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        // The bad line is consumed: log it and read on, as a protocol extension's invalid lines are.
        this.log(`ignored an invalid stdout line: ${(err as Error).message}`);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const { stdin } = this.proc;
    if (this.closed || stdin.destroyed || stdin.writableEnded) return Promise.reject(new Error("the MCP server's stdin is closed"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (!this.proc.stdin.writableEnded) this.proc.stdin.end();
    this.finish();
  }
}
