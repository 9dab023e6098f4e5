// The bounded, ordered writer for one extension's stdin. At most one write is in flight (handed
// to the pipe, not yet flushed) and the rest wait in a queue bounded by frame count and bytes.
// Frames that queued up behind a write go out together in the next one, and so do frames
// enqueued in the same tick after a write started (a runtime may complete a pipe write at once):
// one pipe write per batch rather than per frame is what keeps many calls in flight cheap. Overflow and a write that stays blocked past the write
// timeout are fatal for the extension: the spec prefers disconnecting a slow consumer to
// silently dropping events. Enqueueing never waits for the subprocess.
import type { Writable } from "node:stream";

export type WriteState = "queued" | "in_flight" | "written" | "dropped";

/** One enqueued frame; `written` settles true once flushed, false if it never will be. */
export interface QueuedWrite {
  readonly bytes: number;
  state: WriteState;
  readonly written: Promise<boolean>;
  /** `then(ok)` on `written` without a promise: once flushed (true) or dropped (false), never synchronously. */
  whenWritten(then: (ok: boolean) => void): void;
}

/**
 * A frame in the queue. Its promise is made only when asked for: most frames are learnt about
 * through whenWritten, or not at all, and thousands of calls in flight would each pay for one.
 */
class Entry implements QueuedWrite {
  state: WriteState = "queued";
  private outcome: boolean | undefined;
  private waiters: Array<(ok: boolean) => void> | undefined;
  private promise: Promise<boolean> | undefined;

  constructor(readonly data: string, readonly bytes: number) {}

  get written(): Promise<boolean> {
    this.promise ??= new Promise((resolve) => this.whenWritten(resolve));
    return this.promise;
  }

  whenWritten(then: (ok: boolean) => void): void {
    const outcome = this.outcome;
    if (outcome !== undefined) queueMicrotask(() => then(outcome));
    else (this.waiters ??= []).push(then);
  }

  settle(ok: boolean): void {
    if (this.outcome !== undefined) return;
    this.outcome = ok;
    const waiters = this.waiters;
    this.waiters = undefined;
    if (waiters) queueMicrotask(() => {
      for (const then of waiters) then(ok);
    });
  }
}

export interface OutboundQueueOptions {
  maxFrames: number;
  maxBytes: number;
  writeTimeoutMs: number;
  /** The queue cannot continue (overflow, blocked write, broken pipe). Called once. */
  onFatal(reason: string): void;
}

/** A batch stops growing past this many bytes (a single larger frame still goes alone). */
const BATCH_BYTES = 64 * 1024;

export class OutboundQueue {
  private readonly queue: Entry[] = [];
  private queuedBytes = 0;
  /** The frames of the write in flight; empty when none is. */
  private inFlight: Entry[] = [];
  private inFlightBytes = 0;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  private broken = false;
  /** A write started this tick: further frames wait for the end of the tick and go out together. */
  private coalescing = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly stream: Writable, private readonly options: OutboundQueueOptions) {
    // A child that exits turns further writes into EPIPE errors; they must not crash the host.
    stream.on("error", (err) => this.fail(`cannot write to the extension: ${err.message}`));
  }

  get closed(): boolean {
    return this.broken;
  }

  /** Queues one encoded frame (with its "\n") of `bytes` bytes. Returns undefined when the queue is closed. */
  enqueue(data: string, bytes = Buffer.byteLength(data)): QueuedWrite | undefined {
    if (this.broken) return undefined;
    if (this.queue.length + 1 > this.options.maxFrames || this.queuedBytes + this.heldByStream() + bytes > this.options.maxBytes) {
      this.fail(`outbound queue overflow (more than ${this.options.maxFrames} frames or ` +
        `${this.options.maxBytes} bytes waiting): the extension is not reading its stdin fast enough`);
      return undefined;
    }
    const entry = new Entry(data, bytes);
    this.queue.push(entry);
    this.queuedBytes += bytes;
    this.pump();
    return entry;
  }

  /**
   * Bytes the stream took but the pipe has not, beyond the write in flight (which the bound leaves
   * out): a runtime may buffer writes in user space, and those count against the queue's bytes.
   */
  private heldByStream(): number {
    return Math.max(0, this.stream.writableLength - this.inFlightBytes);
  }

  /** Removes a frame that has not reached the pipe yet. Returns false if it is too late. */
  withdraw(write: QueuedWrite): boolean {
    const index = this.queue.indexOf(write as Entry);
    if (index === -1) return false;
    const [entry] = this.queue.splice(index, 1);
    this.queuedBytes -= entry!.bytes;
    entry!.state = "dropped";
    entry!.settle(false);
    this.notifyIdle();
    return true;
  }

  /** Resolves true once everything queued is flushed, false after `ms` or when broken. */
  drain(ms: number): Promise<boolean> {
    if (this.broken) return Promise.resolve(false);
    if (this.inFlight.length === 0 && this.queue.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), ms);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.idleWaiters = this.idleWaiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      const waiter = () => finish(!this.broken);
      this.idleWaiters.push(waiter);
    });
  }

  /** Stops writing; queued frames are dropped. Does not report a fatal error. */
  close(): void {
    if (this.broken) return;
    this.broken = true;
    this.dropAll();
  }

  private pump(): void {
    if (this.inFlight.length > 0 || this.broken) return;
    if (this.queue.length === 0) return this.notifyIdle();
    if (this.coalescing) return;
    this.coalescing = true;
    process.nextTick(() => {
      this.coalescing = false;
      this.pump();
    });
    const batch = this.takeBatch();
    this.inFlight = batch;
    this.inFlightBytes = batch.reduce((n, e) => n + e.bytes, 0);
    this.writeTimer = setTimeout(() => {
      this.fail(`a write to the extension's stdin was blocked for ${this.options.writeTimeoutMs} ms`);
    }, this.options.writeTimeoutMs);
    const data = batch.length === 1 ? batch[0]!.data : batch.map((e) => e.data).join("");
    this.stream.write(data, (err) => {
      if (this.inFlight !== batch) return; // failed meanwhile; already settled
      if (err) {
        clearTimeout(this.writeTimer);
        this.inFlight = [];
        for (const entry of batch) {
          entry.state = "dropped";
          entry.settle(false);
        }
        this.fail(`cannot write to the extension: ${err.message}`);
        return;
      }
      // The callback can come while the runtime still holds the bytes (Bun buffers pipe writes):
      // the write is done, and the timer stops, only once the stream has drained into the pipe.
      if (this.stream.writableNeedDrain) this.stream.once("drain", () => this.written(batch));
      else this.written(batch);
    });
  }

  private written(batch: Entry[]): void {
    if (this.inFlight !== batch) return;
    clearTimeout(this.writeTimer);
    this.inFlight = [];
    for (const entry of batch) {
      entry.state = "written";
      entry.settle(true);
    }
    this.pump();
  }

  /** The next frames to write together: at least one, then more up to BATCH_BYTES. */
  private takeBatch(): Entry[] {
    const batch: Entry[] = [];
    let bytes = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (batch.length > 0 && bytes + next.bytes > BATCH_BYTES) break;
      this.queue.shift();
      this.queuedBytes -= next.bytes;
      bytes += next.bytes;
      next.state = "in_flight";
      batch.push(next);
    }
    return batch;
  }

  private fail(reason: string): void {
    if (this.broken) return;
    this.broken = true;
    clearTimeout(this.writeTimer);
    this.dropAll();
    this.options.onFatal(reason);
  }

  private dropAll(): void {
    const pending = [...this.inFlight, ...this.queue];
    this.inFlight = [];
    this.queue.length = 0;
    this.queuedBytes = 0;
    for (const entry of pending) {
      entry.state = "dropped";
      entry.settle(false);
    }
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.inFlight.length > 0 || this.queue.length > 0) {
      if (!this.broken) return;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
