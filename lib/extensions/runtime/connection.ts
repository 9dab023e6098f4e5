// The transport to one extension: JSONL in (validated frames, 4 MiB limit while reading), a
// bounded ordered queue out, and requests correlated by id through the protocol's
// PendingRequests, with deadlines that start once the request is written and cancellation that
// withdraws a frame still queued. Every pending request is settled when the peer goes away.
import type { Readable, Writable } from "node:stream";
import {
  encodeFrame, LineDecoder, parseExtensionFrame, PendingRequests,
  type ExtensionFrame, type FrameReceiver, type FrameTransport, type OutgoingFrame, type RequestFailureReason,
} from "../../protocol/index.ts";
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

export interface ConnectionHandlers extends FrameReceiver<ExtensionFrame> {
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
      /** `unsendable`: the request frame alone is over the frame limit; the extension still runs. */
      reason: "timeout" | "disconnected" | "cancelled" | "invalid" | "unsendable";
      message: string;
      delivered: boolean;
      written: Promise<boolean>;
    };

type FailureReason = Extract<Reply<unknown>, { ok: false }>["reason"];
const FAILURE_REASONS: Record<RequestFailureReason, FailureReason> = {
  timeout: "timeout", aborted: "cancelled", closed: "disconnected", failed: "invalid",
};

/** The cause of a request failed because its frame alone is over the frame limit. */
const UNSENDABLE = Symbol("unsendable");

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

export class ExtensionConnection implements FrameTransport {
  private readonly queue: OutboundQueue;
  private readonly pending: PendingRequests<ExtensionFrame, { replyType: string }>;
  private closedReason: string | undefined;

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
    private readonly limits: ConnectionLimits,
    private readonly handlers: ConnectionHandlers,
    idPrefix = "zot",
  ) {
    this.pending = new PendingRequests({ idPrefix });
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
    return this.pending.newId(kind);
  }

  /** Queues a one-way frame; false when it could not be queued (see write). */
  send(frame: OutgoingFrame): boolean {
    return this.write(frame) !== undefined;
  }

  /**
   * Queues a frame and returns its write, to learn when it is flushed. Returns undefined when it
   * could not be queued: the connection is closed, or the frame alone exceeds the frame limit
   * (reported through onUnsendable).
   */
  write(frame: OutgoingFrame): QueuedWrite | undefined {
    const written = this.tryWrite(frame);
    return typeof written === "string" ? undefined : written;
  }

  /** Queues a frame, or says why not: the connection's close reason, or the frame's size. */
  private tryWrite(frame: OutgoingFrame): QueuedWrite | string {
    if (this.closedReason) return this.closedReason;
    const data = encodeFrame(frame);
    const bytes = Buffer.byteLength(data);
    if (bytes - 1 > this.limits.maxFrameBytes) {
      const what = frame.type === "event" ? `${String(frame.event)} event` : frame.type;
      const message = `not sending a ${what} frame of ${bytes} bytes: over the ${this.limits.maxFrameBytes}-byte frame limit`;
      this.handlers.onUnsendable(message);
      return message;
    }
    // An overflow closes the connection (fatal) as it refuses the frame.
    return this.queue.enqueue(data, bytes) ?? this.closedReason ?? "the request could not be sent";
  }

  /** Sends a request frame carrying `id` and waits for the reply of type `replyType`. */
  request<F extends ExtensionFrame>(
    frame: { type: string; id: string } & Record<string, unknown>,
    replyType: F["type"],
    options: RequestOptions,
  ): Promise<Reply<F>> {
    return new Promise((resolve) => {
      let write: QueuedWrite | undefined;
      const request = this.pending.open({
        id: frame.id,
        meta: { replyType },
        timeoutMs: options.timeoutMs,
        deferDeadline: !options.deadlineIncludesWrite,
        signal: options.signal,
        onSettle: (settlement) => {
          if (settlement.ok) return resolve({ ok: true, frame: settlement.reply as F });
          if (settlement.cause === UNSENDABLE) {
            return resolve({ ok: false, reason: "unsendable", message: settlement.message, delivered: false, written: NOT_WRITTEN });
          }
          if (settlement.reason === "aborted" && write?.state === "queued") this.queue.withdraw(write);
          // An invalid reply proves the request arrived.
          const invalid = settlement.reason === "failed";
          resolve({
            ok: false, reason: FAILURE_REASONS[settlement.reason], message: settlement.message,
            delivered: invalid || write?.state === "written",
            written: invalid ? Promise.resolve(true) : write?.written ?? NOT_WRITTEN,
          });
          if (settlement.reason === "aborted" && write?.state === "in_flight") this.blockedAfterCancel(write, frame.type);
        },
      });
      if (request.done) return;
      const written = this.tryWrite(frame);
      if (typeof written === "string") {
        if (this.closedReason) request.fail("closed", written);
        else request.fail("failed", written, UNSENDABLE);
        return;
      }
      write = written;
      if (!options.deadlineIncludesWrite) write.whenWritten((ok) => (ok ? request.startDeadline() : undefined));
    });
  }

  /**
   * The write of a cancelled request may just be finishing; if it stays blocked, the partially
   * written frame cannot be withdrawn and the transport must go.
   */
  private blockedAfterCancel(write: QueuedWrite, type: string): void {
    const grace = Math.min(CANCELLED_WRITE_GRACE_MS, this.limits.writeTimeoutMs);
    const blocked = setTimeout(() => {
      if (write.state === "in_flight") this.fatal(`a ${type} request was cancelled while its write was blocked`);
    }, grace);
    void write.written.then(() => clearTimeout(blocked));
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
    this.pending.close(reason);
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
      if (pending && parsed.type === pending.meta.replyType) pending.fail("failed", parsed.error);
      const name = parsed.type === "call_tool" && parsed.id !== undefined ? readName(line) : undefined;
      this.handlers.onInvalid(`${parsed.error} in line: ${preview(line)}`,
        { error: parsed.error, type: parsed.type, id: parsed.id, name });
      return;
    }
    const frame = parsed.frame;
    if (REPLY_TYPES.has(frame.type)) {
      const id = (frame as { id: string }).id;
      const pending = this.pending.get(id);
      if (pending && pending.meta.replyType === frame.type) {
        pending.resolve(frame);
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
