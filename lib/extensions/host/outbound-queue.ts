// The bounded, ordered writer for one extension's stdin. Frames are written one at a time: at
// most one frame is in flight (handed to the pipe, not yet flushed) and the rest wait in a queue
// bounded by frame count and bytes. Overflow and a write that stays blocked past the write
// timeout are fatal for the extension: the spec prefers disconnecting a slow consumer to
// silently dropping events. Enqueueing never waits for the subprocess.
import type { Writable } from "node:stream";

export type WriteState = "queued" | "in_flight" | "written" | "dropped";

/** One enqueued frame; `written` settles true once flushed, false if it never will be. */
export interface QueuedWrite {
  readonly bytes: number;
  state: WriteState;
  written: Promise<boolean>;
}

interface Entry extends QueuedWrite {
  data: string;
  settle(ok: boolean): void;
}

export interface OutboundQueueOptions {
  maxFrames: number;
  maxBytes: number;
  writeTimeoutMs: number;
  /** The queue cannot continue (overflow, blocked write, broken pipe). Called once. */
  onFatal(reason: string): void;
}

export class OutboundQueue {
  private readonly queue: Entry[] = [];
  private queuedBytes = 0;
  private inFlight: Entry | undefined;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  private broken = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly stream: Writable, private readonly options: OutboundQueueOptions) {
    // A child that exits turns further writes into EPIPE errors; they must not crash the host.
    stream.on("error", (err) => this.fail(`cannot write to the extension: ${err.message}`));
  }

  get closed(): boolean {
    return this.broken;
  }

  /** Queues one encoded frame (with its "\n"). Returns undefined when the queue is closed. */
  enqueue(data: string): QueuedWrite | undefined {
    if (this.broken) return undefined;
    const bytes = Buffer.byteLength(data);
    if (this.queue.length + 1 > this.options.maxFrames || this.queuedBytes + bytes > this.options.maxBytes) {
      this.fail(`outbound queue overflow (more than ${this.options.maxFrames} frames or ` +
        `${this.options.maxBytes} bytes waiting): the extension is not reading its stdin fast enough`);
      return undefined;
    }
    let settle!: (ok: boolean) => void;
    const written = new Promise<boolean>((r) => (settle = r));
    const entry: Entry = { data, bytes, state: "queued", written, settle };
    this.queue.push(entry);
    this.queuedBytes += bytes;
    this.pump();
    return entry;
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
    if (!this.inFlight && this.queue.length === 0) return Promise.resolve(true);
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
    if (this.inFlight || this.broken) return;
    const entry = this.queue.shift();
    if (!entry) return this.notifyIdle();
    this.queuedBytes -= entry.bytes;
    this.inFlight = entry;
    entry.state = "in_flight";
    this.writeTimer = setTimeout(() => {
      this.fail(`a write to the extension's stdin was blocked for ${this.options.writeTimeoutMs} ms`);
    }, this.options.writeTimeoutMs);
    this.stream.write(entry.data, (err) => {
      clearTimeout(this.writeTimer);
      if (this.inFlight !== entry) return; // failed meanwhile; already settled
      this.inFlight = undefined;
      if (err) {
        entry.state = "dropped";
        entry.settle(false);
        this.fail(`cannot write to the extension: ${err.message}`);
        return;
      }
      entry.state = "written";
      entry.settle(true);
      this.pump();
    });
  }

  private fail(reason: string): void {
    if (this.broken) return;
    this.broken = true;
    clearTimeout(this.writeTimer);
    this.dropAll();
    this.options.onFatal(reason);
  }

  private dropAll(): void {
    const pending = this.inFlight ? [this.inFlight, ...this.queue] : [...this.queue];
    this.inFlight = undefined;
    this.queue.length = 0;
    this.queuedBytes = 0;
    for (const entry of pending) {
      entry.state = "dropped";
      entry.settle(false);
    }
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.inFlight || this.queue.length > 0) {
      if (!this.broken) return;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
