// rpc over WebSocket (`zot rpc --listen ws://127.0.0.1:PORT[/path]`): the transport only. Each
// text message is one command line, each line rpc would print goes out as one text message. One
// client drives the session at a time; a second one is refused with close code 1013. Every client
// needs the token (in hello, or with the upgrade); on loopback, an upgrade from a foreign Origin or
// Host is refused before any socket opens (socket-access.ts), so no web page drives the agent.
import { WebSocketServer, type WebSocket } from "ws";
import type { AddressInfo } from "node:net";
import { MAX_FRAME_BYTES } from "../../protocol/limits.ts";
import { messageBytes, messageLine } from "../../protocol/socket-message.ts";
import { checkUpgrade, type AccessRules } from "../../protocol/socket-access.ts";
import type { RpcListen } from "./rpc-listen.ts";

export interface WsHandlers {
  line(text: string): void;
  /** A message that is not a command line (binary, over the limit): answered with an error response. */
  refuse(error: string): void;
  /** A client connected; `authed` when its upgrade carried the token (no hello needed then). */
  connected(authed: boolean): void;
  left(): void;
}

export interface WsTransport {
  /** One encoded line (its "\n" is dropped) to the current client, if any. */
  write(text: string): void;
  /** Closes the current client's socket (a refused hello). */
  drop(reason: string): void;
  close(): Promise<void>;
}

export async function listenWebSocket(target: RpcListen, token: { value: string; generated: boolean }, handlers: WsHandlers,
  say: (line: string) => void): Promise<WsTransport> {
  const rules: AccessRules = { loopbackOnly: !target.any, token: token.value, tokenAtUpgrade: false };
  const host = target.url.hostname.replace(/^\[|\]$/g, "");
  const path = target.url.pathname && target.url.pathname !== "/" ? target.url.pathname : undefined;
  let current: WebSocket | undefined;
  const server = new WebSocketServer({
    host, port: Number(target.url.port || 0), ...(path ? { path } : {}),
    // Room for the 4 MiB line plus its newline; bigger messages are refused below, not by closing.
    maxPayload: 2 * MAX_FRAME_BYTES,
    verifyClient: ({ req }, done) => {
      const verdict = checkUpgrade(req, rules);
      if (verdict.ok) done(true);
      else done(false, verdict.status, verdict.reason);
    },
  });
  await new Promise<void>((ready, fail) => {
    server.once("listening", ready);
    server.once("error", fail);
  });
  server.on("error", (e) => say(`zot: rpc websocket: ${e.message}`));
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `ws://${shown}:${address.port}${path ?? "/"}`;
  say(`zot: rpc listening on ${url}`);
  // A token zot made up is shown once, on the terminal that started it (never in a log).
  if (token.generated) say(`zot: rpc token: ${token.value} (clients send {"type":"hello","token":"…"} first, or connect to ${url}?token=…; set ZOT_RPC_TOKEN to choose it)`);

  server.on("connection", (socket, req) => {
    if (current) {
      socket.send(JSON.stringify({ type: "response", command: null, success: false, error: "another client is connected: one client drives the session at a time" }));
      socket.close(1013, "another client is connected");
      return;
    }
    current = socket;
    const verdict = checkUpgrade(req, rules);
    handlers.connected(verdict.ok && verdict.tokenGiven);
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
