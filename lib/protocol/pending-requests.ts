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
    const { signal, timeoutMs } = options;
    // Made on first use only: most callers learn the outcome from onSettle.
    let settled: Promise<Settlement<R>> | undefined;
    let resolveSettled: ((settlement: Settlement<R>) => void) | undefined;
    let outcome: Settlement<R> | undefined;
    let done = false;
    let deadlineStarted = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settlement: Settlement<R>): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (this.live.get(id) === request) this.live.delete(id);
      outcome = settlement;
      resolveSettled?.(settlement);
      options.onSettle?.(settlement);
      return true;
    };
    const onAbort = (): void => {
      finish({ ok: false, reason: "aborted", message: "cancelled", cause: signal?.reason });
    };
    const request: PendingRequest<R, M> = {
      id,
      meta: options.meta as M,
      get settled() {
        settled ??= outcome ? Promise.resolve(outcome) : new Promise<Settlement<R>>((r) => (resolveSettled = r));
        return settled;
      },
      get done() {
        return done;
      },
      startDeadline: () => {
        if (done || deadlineStarted || timeoutMs === undefined || timeoutMs === null) return;
        deadlineStarted = true;
        timer = setTimeout(() => finish({ ok: false, reason: "timeout", message: `no reply within ${timeoutMs} ms` }), timeoutMs);
      },
      resolve: (reply) => finish({ ok: true, reply }),
      fail: (reason, message, cause) => finish({ ok: false, reason, message, ...(cause !== undefined ? { cause } : {}) }),
    };
    if (this.closeReason !== undefined) {
      finish({ ok: false, reason: "closed", message: this.closeReason });
      return request;
    }
    if (signal?.aborted) {
      onAbort();
      return request;
    }
    this.live.set(id, request);
    if (!options.deferDeadline) request.startDeadline();
    signal?.addEventListener("abort", onAbort, { once: true });
    return request;
  }

  /** Settles every pending request as `closed` with `reason`; later requests settle at once. Idempotent. */
  close(reason: string): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = reason;
    for (const request of [...this.live.values()]) request.fail("closed", reason);
  }
}
