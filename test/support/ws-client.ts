// A WebSocket client playing zot against a served extension: it collects every frame, and
// `next(type)` waits for the next frame of a type (frames of other types stay collected).
import { WebSocket } from "ws";

export interface WsClient {
  socket: WebSocket;
  frames: Array<Record<string, unknown>>;
  next(type: string): Promise<Record<string, unknown>>;
  send(frame: Record<string, unknown>): void;
  /** The close code, once the socket closed. */
  closed: Promise<number>;
}

export async function connectWsClient(url: string, opened: Set<WebSocket>, headers: Record<string, string> = {}): Promise<WsClient> {
  const socket = new WebSocket(url, { headers });
  opened.add(socket);
  const frames: Array<Record<string, unknown>> = [];
  let seen = 0;
  const waiters = new Set<() => void>();
  socket.on("message", (data) => {
    frames.push(JSON.parse(String(data)) as Record<string, unknown>);
    waiters.forEach((w) => w());
  });
  const closed = new Promise<number>((r) => socket.on("close", (code) => r(code)));
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  return {
    socket, frames, closed,
    send: (frame) => socket.send(JSON.stringify(frame)),
    next: (type) => new Promise((resolve) => {
      const check = () => {
        const i = frames.findIndex((f, n) => n >= seen && f.type === type);
        if (i < 0) return;
        seen = i + 1;
        waiters.delete(check);
        resolve(frames[i]!);
      };
      waiters.add(check);
      check();
    }),
  };
}
