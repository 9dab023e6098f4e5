// Reads host frames from stdin: the protocol's LineDecoder splits on "\n" only and enforces the
// frame limit while reading; each complete line is handed on as text. The end of the stream
// (EOF, close or a read error) is reported exactly once.
import { LineDecoder } from "../protocol/index.ts";

/** The part of a Node-style readable stream the SDK uses. */
export interface ReadableLike {
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause?(): unknown;
}

export interface LineReaderHandlers {
  onLine(line: string): void;
  /** The host closed our stdin (or it failed). Called once. */
  onEnd(): void;
  log(message: string): void;
  maxFrameBytes?: number;
}

/** Starts delivering host frame lines to `handlers`; returns a function that stops it. */
export type LineSource = (handlers: LineReaderHandlers) => () => void;

/** Starts reading; returns a function that stops it (and pauses the stream). */
export function readLines(stream: ReadableLike, handlers: LineReaderHandlers): () => void {
  let ended = false;
  const decoder = new LineDecoder({
    maxFrameBytes: handlers.maxFrameBytes,
    onLine: (line) => {
      if (!ended) handlers.onLine(line);
    },
    onOversize: (bytes) => handlers.log(`dropped a host frame over the frame limit (${bytes}+ bytes)`),
  });
  const onData = (chunk: Uint8Array | string): void => {
    decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };
  const onEnd = (): void => {
    if (ended) return;
    decoder.end();
    ended = true;
    detach();
    handlers.onEnd();
  };
  const onError = (err: Error): void => {
    if (ended) return;
    handlers.log(`reading stdin failed: ${err.message}`);
    onEnd();
  };
  const detach = (): void => {
    stream.removeListener("data", onData);
    stream.removeListener("end", onEnd);
    stream.removeListener("close", onEnd);
    // The error listener stays: an unhandled stream error would crash the process.
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  stream.on("close", onEnd);
  stream.on("error", onError);
  return () => {
    ended = true;
    detach();
    // A paused stdin no longer holds the event loop open.
    stream.pause?.();
  };
}
