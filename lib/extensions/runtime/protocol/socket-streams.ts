// A WebSocket seen as the byte streams the protocol's connection reads and writes: one frame per
// text message. Outgoing, each line the outbound queue writes (it batches frames into one write)
// is one message, and a write completes when the socket has handed the last of them to the
// kernel, so a peer that stops reading holds the write and the five-second write bound applies
// to what the socket buffers. Incoming, each text message is one line (a trailing newline is
// tolerated); a binary message is a protocol error.
import { Readable, Writable } from "node:stream";
import type { WebSocket } from "ws";

export interface SocketStreams {
  /** What the host writes: the extension's "stdin". */
  output: Writable;
  /** What the extension sends: its "stdout". */
  input: Readable;
}

export function socketStreams(socket: WebSocket, onBinary: () => void): SocketStreams {
  const output = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const lines = String(chunk).split("\n");
      if (lines.at(-1) === "") lines.pop();
      if (socket.readyState !== socket.OPEN) return done(new Error("the WebSocket is closed"));
      let left = lines.length;
      let failed = false;
      if (left === 0) return done();
      for (const line of lines) {
        socket.send(line, (err) => {
          if (failed) return;
          if (err) {
            failed = true;
            return done(err);
          }
          if (--left === 0) done();
        });
      }
    },
  });
  const input = new Readable({ read() {} });
  socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (isBinary) return onBinary();
    const text = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    input.push(text.at(-1) === 0x0a ? text : Buffer.concat([text, Buffer.from("\n")]));
  });
  socket.on("close", () => {
    input.push(null);
    output.destroy();
  });
  return { output, input };
}
