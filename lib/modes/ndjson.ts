// One compact JSON object per line with `type` first: the only thing json and rpc modes ever
// write to stdout.
import { encodeFrame } from "../protocol/codec.ts";

export interface LineSink {
  write<T extends { type: string }>(line: T): void;
}

export function ndjsonSink(out: NodeJS.WritableStream = process.stdout): LineSink {
  return { write: (line) => void out.write(encodeFrame(line as { type: string } & Record<string, unknown>)) };
}
