// The checker's side of the wire: a running extension's stdio, every stdout line kept (parsed
// with the protocol schemas, invalid ones too) so checks can wait for a frame and the stdout
// check can judge the whole transcript at the end, and requests matched to their replies by the
// protocol's PendingRequests. Unlike the host's ExtensionConnection it never drops or
// disconnects anything: the checker wants to see all of it. SDK tests drive extensions through
// it too.
import type { Readable, Writable } from "node:stream";
import {
  encodeFrame, EXTENSION_FRAME_SCHEMAS, isJsonObject, LineDecoder, MAX_FRAME_BYTES, parseExtensionFrame, PendingRequests,
  type ExtensionFrame, type OutgoingFrame,
} from "../../../protocol/index.ts";
import type { ExitStatus } from "../../runtime/spawn.ts";

/** One stdout line of the extension, in arrival order. */
export interface StdoutLine {
  /** 0-based position in the transcript. */
  index: number;
  /** ms since the extension was started. */
  at: number;
  text: string;
  /** The JSON object, when the line is one (valid frame or not). */
  json: Record<string, unknown> | undefined;
  /** The validated frame; undefined when the line is not a valid frame. */
  frame: ExtensionFrame | undefined;
  /** Why the line is not a valid frame. */
  error: string | undefined;
  /** The line is a JSON object whose `type` no extension frame has. */
  unknownType: boolean;
}

export type WaitOutcome =
  | { kind: "line"; line: StdoutLine }
  | { kind: "timeout" }
  | { kind: "exited"; status: ExitStatus };

/** The process the driver talks to: the host's spawned extension, or any child with piped stdio. */
export interface DriverProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Settles once the process has exited and its stdout was read to the end. */
  readonly exited: Promise<ExitStatus>;
}

export interface DriverOptions {
  maxFrameBytes?: number;
  /** Record empty stdout lines too (as lines that are not JSON); zot itself skips them. */
  keepEmptyLines?: boolean;
}

interface Waiter {
  from: number;
  match: (line: StdoutLine) => boolean;
  done: (outcome: WaitOutcome) => void;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.keys(EXTENSION_FRAME_SCHEMAS));

export class ConformanceDriver<P extends DriverProcess = DriverProcess> {
  readonly lines: StdoutLine[] = [];
  private readonly startedAt = Date.now();
  private readonly waiters = new Set<Waiter>();
  private readonly requests = new PendingRequests<StdoutLine, { replyType: string }>();
  private status: ExitStatus | undefined;

  /** Drives `process`, started just now (for the extension as the host does: see spawnExtension). */
  constructor(readonly process: P, options: DriverOptions = {}) {
    const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    const decoder = new LineDecoder({
      maxFrameBytes,
      keepEmptyLines: options.keepEmptyLines,
      onLine: (text) => this.receive(text),
      onOversize: (bytes) => this.record(`(${bytes} bytes…)`, undefined, `a line of at least ${bytes} bytes exceeds the ${maxFrameBytes}-byte frame limit (zot disconnects such an extension)`),
    });
    process.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
    process.stdout.on("end", () => decoder.end());
    process.stdout.on("error", () => undefined);
    // Writes after the extension died fail with EPIPE; checks see the exit instead.
    process.stdin.on("error", () => undefined);
    void process.exited.then((status) => {
      this.status = status;
      this.requests.close("the extension exited");
      for (const waiter of [...this.waiters]) waiter.done({ kind: "exited", status });
    });
  }

  /** ms since start. */
  elapsed(): number {
    return Date.now() - this.startedAt;
  }

  /** The exit status once the process is gone (and its stdout read to the end). */
  exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Writes one frame to the extension's stdin; false when stdin is already closed. */
  send(frame: OutgoingFrame): boolean {
    return this.sendRaw(encodeFrame(frame));
  }

  /** Writes text or bytes to stdin as they are (to test framing); false when stdin is already closed. */
  sendRaw(data: string | Uint8Array): boolean {
    const stdin = this.process.stdin;
    if (stdin.destroyed || stdin.writableEnded) return false;
    stdin.write(data);
    return true;
  }

  /** Ends the extension's stdin (EOF), as a host that goes away does. */
  endInput(): void {
    this.process.stdin.end();
  }

  /**
   * Sends `frame` and waits `ms` for the line of type `replyType` carrying its id (a valid frame
   * or not), else the timeout, else the exit.
   */
  request(frame: OutgoingFrame & { id: string }, replyType: string, ms: number): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const request = this.requests.open({
        id: frame.id, meta: { replyType }, timeoutMs: ms,
        onSettle: (settlement) => resolve(settlement.ok ? { kind: "line", line: settlement.reply }
          : settlement.reason === "timeout" ? { kind: "timeout" } : { kind: "exited", status: this.status! }),
      });
      if (!request.done) this.send(frame);
    });
  }

  /**
   * The first line at transcript index `from` or later that `match`es, else a timeout after
   * `ms`, else the exit (once the process is gone and no such line arrived).
   */
  waitFor(match: (line: StdoutLine) => boolean, ms: number, from = 0): Promise<WaitOutcome> {
    const found = this.lines.slice(from).find(match);
    if (found) return Promise.resolve({ kind: "line", line: found });
    if (this.status) return Promise.resolve({ kind: "exited", status: this.status });
    return new Promise((resolve) => {
      const timer = setTimeout(() => waiter.done({ kind: "timeout" }), ms);
      const waiter: Waiter = {
        from,
        match,
        done: (outcome) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(outcome);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Resolves true when the process exits within `ms`. */
  async waitExit(ms: number): Promise<boolean> {
    if (this.status) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
    const exited = await Promise.race([this.process.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return exited;
  }

  private receive(text: string): void {
    let json: Record<string, unknown> | undefined;
    try {
      const value: unknown = JSON.parse(text);
      if (isJsonObject(value)) json = value;
    } catch {
      // reported by parseExtensionFrame below
    }
    const parsed = parseExtensionFrame(json ?? text);
    if (parsed.ok) this.record(text, json, undefined, parsed.frame);
    else this.record(text, json, parsed.error, undefined, typeof json?.type === "string" && !KNOWN_TYPES.has(json.type));
  }

  private record(text: string, json: Record<string, unknown> | undefined, error?: string, frame?: ExtensionFrame,
    unknownType = false): void {
    const line: StdoutLine = { index: this.lines.length, at: this.elapsed(), text, json, frame, error, unknownType };
    this.lines.push(line);
    const id = json?.id;
    if (typeof id === "string") {
      const request = this.requests.get(id);
      if (request && request.meta.replyType === json!.type) request.resolve(line);
    }
    for (const waiter of [...this.waiters]) {
      if (line.index >= waiter.from && waiter.match(line)) waiter.done({ kind: "line", line });
    }
  }
}
