// `ext.serve()`: the extension as a WebSocket server that zot connects to (a manifest's `url`).
// Each accepted connection is one zot session, one protocol run over the same handlers; a frame
// is one text message (a trailing newline tolerated). `ws` is loaded on first use, so extensions
// that only speak stdio never load (or, vendored, bundle) it.
import { MAX_FRAME_BYTES } from "../protocol/index.ts";
import { messageBytes, messageLine, wsUrl } from "../protocol/socket-message.ts";
import { checkUpgrade, isLoopbackName } from "../protocol/socket-access.ts";
import type { RunOutcome } from "./connection.ts";
import { describeError } from "./errors.ts";
import type { LineSource } from "./reader.ts";
import type { Session } from "./session.ts";
import type { WritableLike } from "./writer.ts";

export interface ServeOptions {
  /** Default 0: any free port (the handle says which). */
  port?: number;
  /** Default 127.0.0.1. zot refuses plain ws:// to other hosts unless the manifest says "insecure": true. */
  host?: string;
  /** The URL path zot connects to; default "/". Other paths are refused. */
  path?: string;
  /** How long close() waits for a socket's closing handshake before dropping it (default 1000 ms). */
  closeGraceMs?: number;
  /**
   * A token every connection must present (`Authorization: Bearer …` or `?token=…`; a manifest
   * sends it with `"headers": {"Authorization": "Bearer ${VAR}"}`); absent: none is asked. On a
   * loopback host, browser pages of other origins (and `Origin: null`) and foreign Host names are
   * refused either way.
   */
  token?: string;
}

export interface ServeHandle {
  /** ws://host:port/path, for the manifest's `url`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every connection (their sessions end as at EOF). */
  close(): Promise<void>;
}

export interface ServeDeps {
  log(message: string): void;
  newSession(stream: WritableLike): Session;
  runSession(session: Session, input: LineSource): Promise<RunOutcome>;
}

/** The parts of `ws` used here (its own types, or Bun's built-in implementation of them). */
type WsModule = typeof import("ws");
type Socket = import("ws").WebSocket;

async function loadWs(): Promise<WsModule> {
  try {
    return await import("ws");
  } catch (first) {
    // Deno without a package.json: the npm: specifier (kept out of bundlers' sight).
    const npmWs = ["npm", "ws"].join(":");
    try {
      return (await import(npmWs)) as WsModule;
    } catch {
      throw new Error(`ext.serve needs the ws package (built into Bun; under Node run \`npm install ws\`): ${describeError(first)}`);
    }
  }
}

function checkOptions(options: ServeOptions): { port: number; host: string; path: string } {
  const { port = 0, host = "127.0.0.1", path = "/" } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`serve: port must be a whole number from 0 to 65535 (got ${String(port)})`);
  if (typeof host !== "string" || host === "") throw new TypeError("serve: host must be a non-empty string");
  if (typeof path !== "string" || !path.startsWith("/")) throw new TypeError(`serve: path must start with "/" (got ${JSON.stringify(path)})`);
  return { port, host, path };
}

/** The socket's text messages as host frame lines: oversize ones are dropped and logged, a binary one closes the connection (1003). */
function messages(socket: Socket, label: string): LineSource {
  return (handlers) => {
    let ended = false;
    const onMessage = (data: import("ws").RawData, isBinary: boolean): void => {
      if (ended) return;
      if (isBinary) {
        handlers.log(`${label}: a binary message is a protocol error (frames are text messages); closing`);
        return socket.close(1003, "frames are text messages");
      }
      const line = messageLine(messageBytes(data as Buffer | ArrayBuffer | Buffer[]));
      const bytes = Buffer.byteLength(line);
      const max = handlers.maxFrameBytes ?? MAX_FRAME_BYTES;
      if (bytes > max) return handlers.log(`${label}: dropped a host frame over the frame limit (${bytes} bytes)`);
      if (bytes > 0) handlers.onLine(line);
    };
    const detach = (): void => {
      socket.off("message", onMessage);
      socket.off("close", onClose);
    };
    const onClose = (): void => {
      if (ended) return;
      ended = true;
      detach();
      handlers.onEnd();
    };
    socket.on("message", onMessage);
    socket.on("close", onClose);
    return () => {
      ended = true;
      detach();
    };
  };
}

/** Frames out as text messages, without the line's "\n". */
function sender(socket: Socket, OPEN: number): WritableLike {
  return {
    write(chunk, callback) {
      if (socket.readyState !== OPEN) {
        queueMicrotask(() => callback?.(new Error("the connection is closed")));
        return false;
      }
      socket.send(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk, (err) => callback?.(err ?? null));
      return true;
    },
  };
}

export async function serveSessions(options: ServeOptions, deps: ServeDeps): Promise<ServeHandle> {
  const { port, host, path } = checkOptions(options);
  const closeGraceMs = options.closeGraceMs ?? 1_000;
  const ws = await loadWs();
  const OPEN = ws.WebSocket.OPEN;
  // Two bytes over the limit: room for the tolerated "\r\n"; beyond that ws closes with 1009.
  const rules = { loopbackOnly: isLoopbackName(host), ...(options.token ? { token: options.token } : {}), tokenAtUpgrade: true };
  const server = new ws.WebSocketServer({ host, port, path, maxPayload: MAX_FRAME_BYTES + 2,
    verifyClient: ({ req }, done) => {
      const verdict = checkUpgrade(req, rules);
      if (verdict.ok) done(true);
      else done(false, verdict.status, verdict.reason);
    } });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  }).catch((err: unknown) => {
    server.close();
    throw new Error(`serve: cannot listen on ${wsUrl(host, port, path)}: ${describeError(err)}`, { cause: err });
  });
  server.on("error", (err) => deps.log(`server error: ${err.message}`));

  const sockets = new Set<Socket>();
  let count = 0;
  server.on("connection", (socket: Socket) => {
    const label = `connection ${++count}`;
    sockets.add(socket);
    socket.on("error", (err) => deps.log(`${label}: ${err.message}`));
    socket.once("close", () => sockets.delete(socket));
    const session = deps.newSession(sender(socket, OPEN));
    void deps.runSession(session, messages(socket, label)).then(
      // The ack (if any) is flushed: end the connection cleanly.
      () => socket.close(1000),
      (err: unknown) => {
        deps.log(`${label} failed: ${describeError(err)}`);
        socket.terminate();
      },
    );
  });

  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  let closing: Promise<void> | undefined;
  return {
    url: wsUrl(host, bound, path),
    port: bound,
    close: () =>
      (closing ??= (async () => {
        const closed = [...sockets].map((socket) => new Promise<void>((resolve) => {
          if (socket.readyState === ws.WebSocket.CLOSED) return resolve();
          socket.once("close", () => resolve());
          socket.close(1001, "the extension is stopping");
          // A peer that never answers the closing handshake is dropped.
          setTimeout(() => socket.terminate(), closeGraceMs).unref?.();
        }));
        await Promise.all(closed);
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
