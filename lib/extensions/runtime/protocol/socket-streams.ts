// A WebSocket seen as the byte streams the protocol's connection reads and writes: one frame per
// text message. Outgoing, each line the outbound queue writes (it batches frames into one write)
// is one message, and a write completes when the socket has handed the last of them to the
// kernel, so a peer that stops reading holds the write and the five-second write bound applies
// to what the socket buffers. Incoming, each text message is one line (a trailing newline is
// tolerated); a binary message is a protocol error.
import { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { WebSocket } from "ws";
import { messageBytes } from "../../../protocol/socket-message.ts";
import { nodeStream } from "../../../lazy-node.ts";

export interface SocketStreams {
  /** What the host writes: the extension's "stdin". */
  output: Writable;
  /** What the extension sends: its "stdout". */
  input: Readable;
}

const NEWLINE = Buffer.from("\n");

export function socketStreams(socket: WebSocket, onBinary: () => void): SocketStreams {
  const output = new (nodeStream().Writable)({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const lines = String(chunk).split("\n");
      if (lines.at(-1) === "") lines.pop();
      if (socket.readyState !== socket.OPEN) return done(new Error("the WebSocket is closed"));
      if (lines.length === 0) return done();
      // Messages go out in order: the last one written means all of them are.
      for (let i = 0; i < lines.length - 1; i++) socket.send(lines[i]!);
      socket.send(lines.at(-1)!, (err) => done(err ?? undefined));
    },
  });
  // The connection only listens for data, end and error: a plain emitter spares each message a
  // trip through a Readable's buffer.
  const input = new EventEmitter();
  socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (isBinary) return onBinary();
    const text = messageBytes(data);
    input.emit("data", text);
    if (text.at(-1) !== 0x0a) input.emit("data", NEWLINE);
  });
  socket.on("close", () => {
    input.emit("end");
    output.destroy();
  });
  return { output, input: input as unknown as Readable };
}
