// The transport to one extension: JSONL in (validated frames, 4 MiB limit while reading), a
// bounded ordered queue out, and request/response correlation by id with timeouts and
// cancellation. Every pending request is settled when the peer goes away (MCP-SDK style).
import type { Readable, Writable } from "node:stream";
import { encodeFrame, LineDecoder, parseExtensionFrame, type ExtensionFrame } from "../../protocol/index.ts";
import { OutboundQueue, type QueuedWrite } from "./outbound-queue.ts";

export interface ConnectionLimits {
  maxFrameBytes: number;
  queueFrames: number;
  queueBytes: number;
  writeTimeoutMs: number;
}

/**
 * What could still be read from a line that is not a valid frame, so a request can be answered.
 * `name` is read only for `call_tool` (its error reply echoes it).
 */
export interface InvalidFrame {
  /** The validation error alone, without the line preview. */
  error: string;
  type?: string;
  id?: string;
  name?: string;
}

export interface ConnectionHandlers {
  /** A valid frame that is not the reply to a pending request. */
  onFrame(frame: ExtensionFrame): void;
  /**
   * A line that is not a valid frame; `message` names the error and previews the line. An
   * invalid reply to a pending request has already failed that request. The connection carries on.
   */
  onInvalid(message: string, frame: InvalidFrame): void;
  /** An outbound frame over the frame limit was not sent; the connection carries on. */
  onUnsendable(message: string): void;
  /** The transport cannot continue (overflow, blocked write, oversized frame, broken pipe). */
  onFatal(reason: string): void;
}

/**
 * How a request ended. `delivered`: the request frame was fully written when the request
 * ended. `written`: settles true once the frame is (or was) fully written, false if it never
 * will be — a cancellation can race a write that is about to complete.
 */
export type Reply<F> =
  | { ok: true; frame: F }
  | {
      ok: false;
      reason: "timeout" | "disconnected" | "cancelled" | "invalid";
      message: string;
      delivered: boolean;
      written: Promise<boolean>;
    };

/** A write still in flight this long after its request was cancelled counts as blocked. */
const CANCELLED_WRITE_GRACE_MS = 250;
const NOT_WRITTEN = Promise.resolve(false);

export interface RequestOptions {
  /** Reply deadline in ms; null waits without a deadline (interactive tools). */
  timeoutMs: number | null;
  /** true: the deadline starts before the write (before_agent_start); else after it. */
  deadlineIncludesWrite?: boolean;
  signal?: AbortSignal;
}

/** Extension frames that answer a host request, by the request's frame type. */
const REPLY_TYPES = new Set(["tool_result", "command_response", "event_intercept_response"]);

interface Pending {
  replyType: string;
  write: QueuedWrite | undefined;
  settle(reply: Reply<ExtensionFrame>): void;
}

export class Connection {
  private readonly queue: OutboundQueue;
  private readonly pending = new Map<string, Pending>();
  private nextId = 0;
  private closedReason: string | undefined;

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
    private readonly limits: ConnectionLimits,
    private readonly handlers: ConnectionHandlers,
    private readonly idPrefix = "zot",
  ) {
    this.queue = new OutboundQueue(stdin, {
      maxFrames: limits.queueFrames,
      maxBytes: limits.queueBytes,
      writeTimeoutMs: limits.writeTimeoutMs,
      onFatal: (reason) => this.fatal(reason),
    });
    const decoder = new LineDecoder({
      maxFrameBytes: limits.maxFrameBytes,
      onLine: (line) => this.receive(line),
      onOversize: (bytes) => this.fatal(`sent a frame of at least ${bytes} bytes; the limit is ${limits.maxFrameBytes}`),
    });
    stdout.on("data", (chunk: Buffer) => {
      if (!this.closedReason) decoder.push(chunk);
    });
    stdout.on("end", () => decoder.end());
    stdout.on("error", () => undefined);
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** A fresh request id, unique for this connection. */
  newId(kind: string): string {
    return `${this.idPrefix}-${kind}-${++this.nextId}`;
  }

  /**
   * Queues a one-way frame. Returns undefined when it could not be queued: the connection is
   * closed, or the frame alone exceeds the frame limit (reported through onUnsendable).
   */
  send(frame: { type: string } & Record<string, unknown>): QueuedWrite | undefined {
    if (this.closedReason) return undefined;
    const data = encodeFrame(frame);
    if (Buffer.byteLength(data) - 1 > this.limits.maxFrameBytes) {
      const what = frame.type === "event" ? `${String(frame.event)} event` : frame.type;
      this.handlers.onUnsendable(`not sending a ${what} frame of ${Buffer.byteLength(data)} bytes: over the ${this.limits.maxFrameBytes}-byte frame limit`);
      return undefined;
    }
    return this.queue.enqueue(data);
  }

  /** Sends a request frame carrying `id` and waits for the reply of type `replyType`. */
  request<F extends ExtensionFrame>(
    frame: { type: string; id: string } & Record<string, unknown>,
    replyType: F["type"],
    options: RequestOptions,
  ): Promise<Reply<F>> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const onAbort = () => {
        const write = entry.write;
        if (write?.state === "queued") this.queue.withdraw(write);
        settle(failure("cancelled", "cancelled"));
        if (write?.state !== "in_flight") return;
        // The write may just be finishing; if it stays blocked, the partially written frame
        // cannot be withdrawn and the transport must go.
        const grace = Math.min(CANCELLED_WRITE_GRACE_MS, this.limits.writeTimeoutMs);
        const blocked = setTimeout(() => {
          if (write.state === "in_flight") this.fatal(`a ${frame.type} request was cancelled while its write was blocked`);
        }, grace);
        void write.written.then(() => clearTimeout(blocked));
      };
      const failure = (reason: "timeout" | "disconnected" | "cancelled" | "invalid", message: string): Reply<ExtensionFrame> => ({
        ok: false, reason, message, delivered: entry.write?.state === "written", written: entry.write?.written ?? NOT_WRITTEN,
      });
      const settle = (reply: Reply<ExtensionFrame>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.pending.delete(frame.id);
        resolve(reply as Reply<F>);
      };
      const entry: Pending = { replyType, write: undefined, settle };
      if (this.closedReason) return settle(failure("disconnected", this.closedReason));
      if (options.signal?.aborted) return settle(failure("cancelled", "cancelled"));
      this.pending.set(frame.id, entry);
      const startTimer = () => {
        if (options.timeoutMs === null || done) return;
        timer = setTimeout(() => settle(failure("timeout", `no reply within ${options.timeoutMs} ms`)), options.timeoutMs);
      };
      if (options.deadlineIncludesWrite) startTimer();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      entry.write = this.send(frame);
      if (!entry.write) return settle(failure("disconnected", this.closedReason ?? "the request could not be sent"));
      if (!options.deadlineIncludesWrite) {
        void entry.write.written.then((ok) => (ok ? startTimer() : undefined));
      }
    });
  }

  /** Waits until queued frames are flushed (true) or `ms` pass (false). */
  drain(ms: number): Promise<boolean> {
    return this.queue.drain(ms);
  }

  /** Ends the transport: pending requests fail with `reason`, stdin is closed. */
  close(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.queue.close();
    for (const p of [...this.pending.values()]) {
      p.settle({ ok: false, reason: "disconnected", message: reason, delivered: p.write?.state === "written",
        written: p.write?.written ?? NOT_WRITTEN });
    }
    // Destroying (not ending) stdin also releases a writer blocked on a full pipe.
    this.stdin.destroy();
  }

  private fatal(reason: string): void {
    if (this.closedReason) return;
    this.close(reason);
    this.handlers.onFatal(reason);
  }

  private receive(line: string): void {
    if (this.closedReason) return;
    const parsed = parseExtensionFrame(line);
    if (!parsed.ok) {
      // An invalid reply still answers its request, so the caller is not left waiting.
      const pending = parsed.id !== undefined ? this.pending.get(parsed.id) : undefined;
      if (pending && parsed.type === pending.replyType) {
        pending.settle({ ok: false, reason: "invalid", message: parsed.error, delivered: true, written: Promise.resolve(true) });
      }
      const name = parsed.type === "call_tool" && parsed.id !== undefined ? readName(line) : undefined;
      this.handlers.onInvalid(`${parsed.error} in line: ${preview(line)}`,
        { error: parsed.error, type: parsed.type, id: parsed.id, name });
      return;
    }
    const frame = parsed.frame;
    if (REPLY_TYPES.has(frame.type)) {
      const id = (frame as { id: string }).id;
      const pending = this.pending.get(id);
      if (pending && pending.replyType === frame.type) {
        pending.settle({ ok: true, frame });
        return;
      }
    }
    this.handlers.onFrame(frame);
  }
}

/** The string `name` of a JSON object line, if any (the parser does not return it). */
function readName(line: string): string | undefined {
  try {
    const name = (JSON.parse(line) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

function preview(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} chars)` : line;
}
