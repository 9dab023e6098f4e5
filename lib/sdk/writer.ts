// The only way anything reaches stdout: one validated, compact JSON frame per line. Writes are
// issued synchronously in call order, so frames never interleave; a frame that would break the
// protocol (schema violation, not serializable, over 4 MiB) is refused before a byte is written.
import { encodeFrame, MAX_FRAME_BYTES, parseExtensionFrame } from "../protocol/index.ts";
import { OutboundFrameError } from "./errors.ts";

/** The part of a Node-style writable stream the SDK uses. */
export interface WritableLike {
  write(chunk: string, callback?: (err?: Error | null) => void): boolean;
  on?(event: "error", listener: (err: Error) => void): unknown;
}

export type OutboundFrame = { type: string } & Record<string, unknown>;

/** Checks `frame` against the protocol and encodes it as one line; throws OutboundFrameError. */
export function encodeOutbound(frame: OutboundFrame, maxFrameBytes = MAX_FRAME_BYTES): string {
  const checked = parseExtensionFrame(frame);
  if (!checked.ok) throw new OutboundFrameError(`refusing to send an invalid frame: ${checked.error}`);
  let line: string;
  try {
    line = encodeFrame(frame);
  } catch (err) {
    throw new OutboundFrameError(`refusing to send a ${frame.type} frame: ${(err as Error).message}`);
  }
  const bytes = Buffer.byteLength(line, "utf8") - 1;
  if (bytes > maxFrameBytes) {
    throw new OutboundFrameError(`refusing to send a ${frame.type} frame of ${bytes} bytes: the limit is ${maxFrameBytes}`);
  }
  return line;
}

export class FrameWriter {
  private closed = false;
  private inFlight = 0;
  private drained: Array<() => void> = [];

  constructor(
    private readonly stream: WritableLike,
    private readonly log: (message: string) => void,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {
    // A host that went away makes writes fail (EPIPE); that is the end of output, not a crash.
    stream.on?.("error", (err) => {
      if (!this.closed) this.log(`stdout failed, no more frames will be sent: ${err.message}`);
      this.closed = true;
    });
  }

  /** Checks `frame` against the protocol and encodes it; throws OutboundFrameError. */
  encode(frame: OutboundFrame): string {
    return encodeOutbound(frame, this.maxFrameBytes);
  }

  /**
   * Writes `frame` as one line. Returns false (writing nothing) once the writer is closed.
   * Throws OutboundFrameError for a frame that would break the protocol.
   */
  send(frame: OutboundFrame): boolean {
    const line = this.encode(frame);
    if (this.closed) return false;
    this.inFlight++;
    try {
      this.stream.write(line, () => this.settled());
    } catch (err) {
      this.settled();
      this.closed = true;
      this.log(`stdout failed, no more frames will be sent: ${(err as Error).message}`);
      return false;
    }
    return true;
  }

  /** No frame may follow (after `shutdown_ack`, or once the host is gone). */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves once every written frame has been handed to the OS, or after `timeoutMs`. */
  flush(timeoutMs = 2_000): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private settled(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const done of this.drained.splice(0)) done();
  }
}
