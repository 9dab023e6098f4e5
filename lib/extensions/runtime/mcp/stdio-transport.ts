// The SDK's Transport over a server process zot spawned itself (its own process group, stderr to
// the extension's log, the exit status for diagnostics): newline-delimited JSON-RPC on stdin and
// stdout, as the SDK's own stdio transport frames it. Closing ends stdin, which is how MCP asks a
// stdio server to exit; the extension's shutdown signals it afterwards if it does not. A message
// over MCP_MESSAGE_MAX_BYTES is cut off as it streams in (never buffered whole) and ends the
// connection: that is the server's fault, reported through `onFatal`, never zot's crash.
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineDecoder } from "../../../protocol/codec.ts";
import { ServerStdinClosedError } from "./server-errors.ts";
import type { ExtensionProcess } from "../spawn.ts";

/** The largest message zot reads from an MCP server: 16 MiB (the MCP SDK's own stdio client allows 10). */
export const MCP_MESSAGE_MAX_BYTES = 16 * 1024 * 1024;

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly decoder: LineDecoder;
  private closed = false;

  constructor(private readonly proc: ExtensionProcess, private readonly log: (message: string) => void,
    private readonly onFatal: (reason: string) => void, maxBytes = MCP_MESSAGE_MAX_BYTES) {
    this.decoder = new LineDecoder({
      maxFrameBytes: maxBytes,
      onLine: (line) => this.receive(line),
      onOversize: (bytes) => this.onFatal(`sent a message of more than ${bytes} bytes; the limit is ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB)`),
    });
  }

  async start(): Promise<void> {
    const { stdout, stdin } = this.proc;
    // A server that died makes writes fail with EPIPE; the exit is reported by the extension.
    stdin.on("error", (err) => this.log(`writing to the server failed: ${err.message}`));
    stdout.on("data", (chunk: Buffer) => this.decoder.push(chunk));
    stdout.once("end", () => this.finish());
    stdout.once("close", () => this.finish());
  }

  private receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // A bad line is logged and skipped, as a protocol extension's invalid lines are.
      this.log(`ignored an invalid stdout line: ${(err as Error).message}`);
      return;
    }
    this.onmessage?.(message);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.decoder.end();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const { stdin } = this.proc;
    if (this.closed || stdin.destroyed || stdin.writableEnded) return Promise.reject(new ServerStdinClosedError());
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
