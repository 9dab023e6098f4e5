// Request/response correlation, the one implementation every TypeScript side of the protocol
// uses (the host's extension connection, the SDK's callTool, the `zot ext test` checker): ids,
// a deadline per request, cancellation through an AbortSignal, and every pending request
// settled when the transport closes. A reply whose id is not pending (late, after a timeout or
// a cancellation, or never asked for) matches nothing: `resolve` returns false so the caller
// can log it. No I/O here; the caller sends the request frame and routes the replies.

/** timeout: the deadline passed; aborted: the signal fired; closed: the transport ended; failed: the caller said so. */
export type RequestFailureReason = "timeout" | "aborted" | "closed" | "failed";

export type Settlement<R> =
  | { ok: true; reply: R }
  | { ok: false; reason: RequestFailureReason; message: string; cause?: unknown };

interface BaseOpenOptions<R> {
  /** The request id; allocated with newId() when omitted. An id that is still pending is refused (throws). */
  id?: string;
  /** Reply deadline in ms; undefined or null waits without one. */
  timeoutMs?: number | null;
  /** true: the deadline starts at startDeadline() (e.g. once the frame is written), not now. */
  deferDeadline?: boolean;
  /** Aborting it settles the request as `aborted`, with the signal's reason as `cause`. */
  signal?: AbortSignal;
  /**
   * Runs synchronously the moment the request settles, before `settled` resolves: the place to
   * withdraw a queued frame or send a cancel frame. Must not throw.
   */
  onSettle?(settlement: Settlement<R>): void;
}

/** What the caller keeps about a request (the reply type it expects, a tool name, …). */
export type OpenOptions<R, M> = BaseOpenOptions<R> & (undefined extends M ? { meta?: M } : { meta: M });

export interface PendingRequest<R, M> {
  readonly id: string;
  readonly meta: M;
  /** Resolves once, with the reply or the failure. Never rejects. */
  readonly settled: Promise<Settlement<R>>;
  /** True once settled. */
  readonly done: boolean;
  /** Starts a deferred deadline; a no-op once started, once settled, or without a timeout. */
  startDeadline(): void;
  /** Settles with `reply`; false when already settled. */
  resolve(reply: R): boolean;
  /** Settles with a failure; false when already settled. */
  fail(reason: RequestFailureReason, message: string, cause?: unknown): boolean;
}

export interface PendingRequestsOptions {
  /** Allocated ids are `<idPrefix>-<n>`, or `<idPrefix>-<label>-<n>`: one counter for all labels. */
  idPrefix?: string;
}

export class PendingRequests<R, M = undefined> {
  private readonly live = new Map<string, PendingRequest<R, M>>();
  private readonly aborts = new AbortWatch();
  private readonly idPrefix: string;
  private counter = 0;
  private closeReason: string | undefined;

  constructor(options: PendingRequestsOptions = {}) {
    this.idPrefix = options.idPrefix ?? "req";
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  /** Why the requests were closed, once they were. */
  get closedReason(): string | undefined {
    return this.closeReason;
  }

  /** How many requests are pending. */
  get size(): number {
    return this.live.size;
  }

  /** A fresh id, never allocated before by this instance. */
  newId(label?: string): string {
    const n = ++this.counter;
    return label === undefined ? `${this.idPrefix}-${n}` : `${this.idPrefix}-${label}-${n}`;
  }

  /** The pending request with `id`, if any. */
  get(id: string): PendingRequest<R, M> | undefined {
    return this.live.get(id);
  }

  /** Settles the pending request `id` with `reply`; false when no request with that id is pending. */
  resolve(id: string, reply: R): boolean {
    return this.live.get(id)?.resolve(reply) ?? false;
  }

  /** Fails the pending request `id`; false when no request with that id is pending. */
  fail(id: string, reason: RequestFailureReason, message: string, cause?: unknown): boolean {
    return this.live.get(id)?.fail(reason, message, cause) ?? false;
  }

  /**
   * Registers a request. Once closed, or with a signal that already fired, it comes back
   * settled (closed, then aborted, in that order of precedence).
   */
  open(options: OpenOptions<R, M>): PendingRequest<R, M> {
    const id = options.id ?? this.newId();
    if (this.live.has(id)) throw new Error(`a request with id "${id}" is already pending`);
    const request = new Pending<R, M>(id, options, this.live, this.aborts);
    if (this.closeReason !== undefined) {
      request.fail("closed", this.closeReason);
      return request;
    }
    const { signal } = options;
    if (signal?.aborted) {
      request.abort();
      return request;
    }
    this.live.set(id, request);
    if (!options.deferDeadline) request.startDeadline();
    if (signal) this.aborts.watch(signal, request);
    return request;
  }

  /** Settles every pending request as `closed` with `reason`; later requests settle at once. Idempotent. */
  close(reason: string): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = reason;
    for (const request of [...this.live.values()]) request.fail("closed", reason);
  }
}

/** What a signal's firing does to one waiting request. */
interface Abortable {
  abort(): void;
}

/**
 * One abort listener per signal, however many requests wait on it: a run's tool calls share its
 * signal, and an EventTarget adds and removes each listener by scanning all the others.
 */
class AbortWatch {
  private readonly waiting = new WeakMap<AbortSignal, Set<Abortable>>();

  watch(signal: AbortSignal, request: Abortable): void {
    (this.waiting.get(signal) ?? this.listen(signal)).add(request);
  }

  unwatch(signal: AbortSignal, request: Abortable): void {
    this.waiting.get(signal)?.delete(request);
  }

  /** The set of `signal`'s waiters, with the one listener that aborts them all. */
  private listen(signal: AbortSignal): Set<Abortable> {
    const waiters = new Set<Abortable>();
    this.waiting.set(signal, waiters);
    signal.addEventListener("abort", () => {
      this.waiting.delete(signal);
      for (const waiter of [...waiters]) waiter.abort();
    }, { once: true });
    return waiters;
  }
}

/** One pending request: settles once, by reply, failure, deadline, abort or close. */
class Pending<R, M> implements PendingRequest<R, M>, Abortable {
  readonly meta: M;
  private outcome: Settlement<R> | undefined;
  // Made on first use only: most callers learn the outcome from onSettle.
  private settledPromise: Promise<Settlement<R>> | undefined;
  private resolveSettled: ((settlement: Settlement<R>) => void) | undefined;
  private deadlineStarted = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly id: string, private readonly options: BaseOpenOptions<R> & { meta?: M },
    private readonly live: Map<string, PendingRequest<R, M>>, private readonly aborts: AbortWatch) {
    this.meta = options.meta as M;
  }

  get settled(): Promise<Settlement<R>> {
    this.settledPromise ??= this.outcome
      ? Promise.resolve(this.outcome)
      : new Promise<Settlement<R>>((resolve) => (this.resolveSettled = resolve));
    return this.settledPromise;
  }

  get done(): boolean {
    return this.outcome !== undefined;
  }

  startDeadline(): void {
    const { timeoutMs } = this.options;
    if (this.done || this.deadlineStarted || timeoutMs === undefined || timeoutMs === null) return;
    this.deadlineStarted = true;
    this.timer = setTimeout(() => this.finish({ ok: false, reason: "timeout", message: `no reply within ${timeoutMs} ms` }), timeoutMs);
  }

  resolve(reply: R): boolean {
    return this.finish({ ok: true, reply });
  }

  fail(reason: RequestFailureReason, message: string, cause?: unknown): boolean {
    return this.finish({ ok: false, reason, message, ...(cause !== undefined ? { cause } : {}) });
  }

  abort(): void {
    this.finish({ ok: false, reason: "aborted", message: "cancelled", cause: this.options.signal?.reason });
  }

  private finish(settlement: Settlement<R>): boolean {
    if (this.outcome !== undefined) return false;
    this.outcome = settlement;
    clearTimeout(this.timer);
    const { signal } = this.options;
    if (signal) this.aborts.unwatch(signal, this);
    if (this.live.get(this.id) === this) this.live.delete(this.id);
    this.resolveSettled?.(settlement);
    this.options.onSettle?.(settlement);
    return true;
  }
}
