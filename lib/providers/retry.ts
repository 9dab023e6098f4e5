// The one retry policy for model requests (the SDKs' own retries are off). A request is retried
// on 429, 5xx and connection failures with exponential backoff or the server's `retry-after`,
// but never once output has reached the caller: a half-streamed answer cannot be taken back.
// A stream that goes quiet for `stallTimeoutMs` is aborted and counts as a connection failure.
import { AssistantDraft } from "./draft.ts";
import type { Failure } from "./errors.ts";
import { StallWatchdog, StreamStallError } from "./stall.ts";
import type { ModelStreamEvent } from "./types.ts";

export interface RetryOptions {
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** First backoff delay; doubles with each retry (default 1000 ms). */
  baseDelayMs?: number;
  /** Cap on any single wait, including a server's `retry-after` (default 30 s). */
  maxDelayMs?: number;
  /**
   * An attempt that receives no stream event for this long between events is aborted as a
   * stalled connection (default 120 s; 0 disables). Before the first event the limit is
   * FIRST_EVENT_STALL_FACTOR times longer (10 min by default): slow local models think first.
   */
  stallTimeoutMs?: number;
}

export const FIRST_EVENT_STALL_FACTOR = 5;

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000, stallTimeoutMs: 120_000 };

/** Milliseconds to wait before retry number `retry` (1-based). */
export function retryDelay(retry: number, failure: Failure, options: Required<RetryOptions>): number {
  const backoff = options.baseDelayMs * 2 ** (retry - 1);
  return Math.min(failure.retryAfterMs ?? backoff, options.maxDelayMs);
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts (clearing the timer). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One try at a response: sends the request (honouring `signal`), records the response into
 * `draft` and yields its deltas. It calls `alive` for every event the wire delivers (also those
 * that yield nothing) so a slow but live stream is not taken for a stalled one. It returns
 * normally only once `draft.stop` is set; anything else is thrown and classified by `describe`.
 */
export type StreamAttempt = (signal: AbortSignal, draft: AssistantDraft, alive: () => void) => AsyncIterable<ModelStreamEvent>;

export interface RetryingStreamOptions {
  provider: string;
  model: string;
  signal?: AbortSignal;
  retry?: RetryOptions;
  attempt: StreamAttempt;
  describe: (err: unknown) => Failure;
}

/**
 * Runs attempts until one completes, yielding their deltas, `retry` events between attempts and
 * exactly one final `done`. Never throws: failures and aborts become the `done` message.
 * Leaving the loop early (or aborting) cancels the HTTP request in flight.
 */
export async function* streamWithRetry(options: RetryingStreamOptions): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { provider, model, signal } = options;
  const policy = { ...DEFAULT_RETRY, ...definedOnly(options.retry) };
  for (let retry = 0; ; retry++) {
    const draft = new AssistantDraft(provider, model);
    const request = new AbortController();
    const forwardAbort = () => request.abort(signal?.reason);
    signal?.addEventListener("abort", forwardAbort, { once: true });
    let stalledForMs = policy.stallTimeoutMs;
    const watchdog = new StallWatchdog(policy.stallTimeoutMs, (waited) => {
      stalledForMs = waited;
      request.abort(new StreamStallError(waited));
    }, policy.stallTimeoutMs * FIRST_EVENT_STALL_FACTOR);
    let started = false;
    try {
      if (signal?.aborted) throw signal.reason;
      watchdog.resume();
      for await (const event of options.attempt(request.signal, draft, watchdog.touch)) {
        started = true;
        // The caller's time with an event is not the wire's silence.
        watchdog.pause();
        yield event;
        watchdog.resume();
      }
      watchdog.pause();
      if (draft.stop === undefined) throw new Error("the provider ended a response without a stop reason");
      yield { type: "done", message: draft.finish(draft.stop) };
      return;
    } catch (err) {
      watchdog.pause();
      if (signal?.aborted) {
        yield { type: "done", message: draft.fail("aborted", "request aborted") };
        return;
      }
      // The SDKs report our stall abort as a user abort or a quiet end; the watchdog knows better.
      const failure = watchdog.stalled ? stallFailure(stalledForMs) : options.describe(err);
      if (started || !failure.retryable || retry >= policy.maxRetries) {
        yield { type: "done", message: draft.fail("error", failure.message) };
        return;
      }
      const delay = retryDelay(retry + 1, failure, policy);
      yield { type: "retry", attempt: retry + 1, delayMs: delay, error: failure.message, ...(failure.status !== undefined ? { status: failure.status } : {}) };
      try {
        await sleep(delay, signal);
      } catch {
        yield { type: "done", message: draft.fail("aborted", "request aborted") };
        return;
      }
    } finally {
      watchdog.pause();
      signal?.removeEventListener("abort", forwardAbort);
      // Closes the HTTP request if it is still open (early exit, error after headers, abort).
      request.abort();
    }
  }
}

/** A stall is a dead connection: retried while nothing was streamed, like any other. */
function stallFailure(timeoutMs: number): Failure {
  return { message: new StreamStallError(timeoutMs).message, retryable: true };
}

function definedOnly(options: RetryOptions | undefined): RetryOptions {
  if (!options) return {};
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as RetryOptions;
}
