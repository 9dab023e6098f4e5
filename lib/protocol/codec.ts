// The JSONL codec. Frames are split on "\n" only: never `readline`, which also splits on
// U+2028/U+2029, both legal inside JSON strings. Bytes are decoded per complete line, so a
// multi-byte character split across chunks is reassembled. The frame limit is enforced while
// reading: an over-long line is discarded as it streams in, never buffered whole.
import { MAX_FRAME_BYTES } from "./limits.ts";

export interface LineDecoderOptions {
  maxFrameBytes?: number;
  /** One complete line (without "\n" and a trailing "\r"). Empty lines are skipped unless kept. */
  onLine(line: string): void;
  /** Deliver empty lines too: for a test driver that must see every line a peer wrote. */
  keepEmptyLines?: boolean;
  /** A line exceeded the limit; `bytes` is how much of it was seen when it was cut off. */
  onOversize?(bytes: number): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

export class LineDecoder {
  private readonly max: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** True while skipping the rest of an over-long line. */
  private discarding = false;

  constructor(private readonly options: LineDecoderOptions) {
    this.max = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  }

  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    // The common case, a chunk of whole lines and nothing carried over: decode its complete
    // lines in one go (a chunk within the limit cannot hold an over-long line).
    if (this.size === 0 && !this.discarding && buf.length <= this.max) {
      const last = buf.lastIndexOf(NEWLINE);
      if (last !== -1) {
        this.deliver(buf.toString("utf8", 0, last));
        start = last + 1;
      }
    }
    while (start < buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      if (this.discarding) {
        if (nl !== -1) this.discarding = false;
      } else {
        this.append(buf.subarray(start, end));
        if (nl !== -1 && !this.discarding) this.flushLine();
        else if (nl !== -1) this.discarding = false;
      }
      if (nl === -1) break;
      start = nl + 1;
    }
  }

  /** The stream ended: a final line without "\n" still counts. */
  end(): void {
    if (!this.discarding && this.size > 0) this.flushLine();
    this.reset();
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    // One byte of slack for a trailing "\r", which is not part of the frame; flushLine checks
    // the exact length once the line is complete.
    if (this.size + piece.length > this.max + 1) {
      const seen = this.size + piece.length;
      this.reset();
      this.discarding = true;
      this.options.onOversize?.(seen);
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  /** Complete lines decoded together, separated by "\n" (the last one's "\n" already cut). */
  private deliver(text: string): void {
    let from = 0;
    for (;;) {
      const nl = text.indexOf("\n", from);
      let line = nl === -1 ? text.slice(from) : text.slice(from, nl);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.length > 0 || this.options.keepEmptyLines) this.options.onLine(line);
      if (nl === -1) return;
      from = nl + 1;
    }
  }

  private flushLine(): void {
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.reset();
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > this.max) {
      this.options.onOversize?.(line.length);
      return;
    }
    if (line.length === 0 && !this.options.keepEmptyLines) return;
    this.options.onLine(line.toString("utf8"));
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}

/** Compact JSON with `type` as the first key, terminated by "\n". */
export function encodeFrame(frame: { type: string } & Record<string, unknown>): string {
  // Frames are mostly built with `type` first already; copying them is then wasted work.
  for (const first in frame) {
    if (first === "type") return `${JSON.stringify(frame)}\n`;
    break;
  }
  const { type, ...rest } = frame;
  return `${JSON.stringify({ type, ...rest })}\n`;
}
