// rpc over WebSocket (`zot rpc --listen ws://127.0.0.1:PORT[/path]`): the transport only. Each
// text message is one command line, each line rpc would print goes out as one text message. One
// client drives the session at a time; a second one is refused with close code 1013. A browser
// connection whose Origin is not loopback is refused (unless --listen-any): otherwise any web
// page the user opens could drive the local agent, also through DNS rebinding.
import { WebSocketServer, type WebSocket } from "ws";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_FRAME_BYTES } from "../../protocol/limits.ts";
import { messageBytes, messageLine } from "../../protocol/socket-message.ts";
import { isRpcLoopbackHost, type RpcListen } from "./rpc-listen.ts";

export interface WsHandlers {
  line(text: string): void;
  /** A message that is not a command line (binary, over the limit): answered with an error response. */
  refuse(error: string): void;
  connected(): void;
  left(): void;
}

export interface WsTransport {
  /** One encoded line (its "\n" is dropped) to the current client, if any. */
  write(text: string): void;
  /** Closes the current client's socket (a refused hello). */
  drop(reason: string): void;
  close(): Promise<void>;
}

function originAllowed(req: IncomingMessage, any: boolean): boolean {
  const origin = req.headers.origin;
  // Non-browser clients send no Origin; a local file:// page (the example client) sends "null"
  // or "file://": neither is a web site the user merely visited.
  if (any || origin === undefined || origin === "null" || origin === "file://") return true;
  try {
    return isRpcLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export async function listenWebSocket(target: RpcListen, handlers: WsHandlers, say: (line: string) => void): Promise<WsTransport> {
  const host = target.url.hostname.replace(/^\[|\]$/g, "");
  const path = target.url.pathname && target.url.pathname !== "/" ? target.url.pathname : undefined;
  let current: WebSocket | undefined;
  const server = new WebSocketServer({
    host, port: Number(target.url.port || 0), ...(path ? { path } : {}),
    // Room for the 4 MiB line plus its newline; bigger messages are refused below, not by closing.
    maxPayload: 2 * MAX_FRAME_BYTES,
    verifyClient: ({ req }, done) => originAllowed(req, target.any) ? done(true) : done(false, 403, "Origin not allowed: rpc serves loopback pages only (see --listen-any)"),
  });
  await new Promise<void>((ready, fail) => {
    server.once("listening", ready);
    server.once("error", fail);
  });
  server.on("error", (e) => say(`zot: rpc websocket: ${e.message}`));
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  say(`zot: rpc listening on ws://${shown}:${address.port}${path ?? "/"}`);

  server.on("connection", (socket) => {
    if (current) {
      socket.send(JSON.stringify({ type: "response", command: null, success: false, error: "another client is connected: one client drives the session at a time" }));
      socket.close(1013, "another client is connected");
      return;
    }
    current = socket;
    handlers.connected();
    socket.on("message", (data, isBinary) => {
      if (current !== socket) return;
      if (isBinary) return handlers.refuse("binary messages are not commands: send each command as a text message");
      const buf = messageBytes(data);
      const text = messageLine(buf);
      if (Buffer.byteLength(text) > MAX_FRAME_BYTES) return handlers.refuse(`command line of ${buf.length} bytes exceeds the limit`);
      handlers.line(text);
    });
    socket.on("close", () => {
      if (current !== socket) return;
      current = undefined;
      handlers.left();
    });
    socket.on("error", () => {});
  });

  return {
    write(text) {
      if (current?.readyState === current?.OPEN) current?.send(text.endsWith("\n") ? text.slice(0, -1) : text);
    },
    drop(reason) {
      current?.close(1008, reason);
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
