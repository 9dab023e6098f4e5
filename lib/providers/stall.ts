// Stall detection for one streaming attempt. A stream that stops sending without closing (a
// broken network, a hung proxy) would otherwise hang until the user aborts; the watchdog turns
// "no wire event for a while" into a connection failure the retry driver already knows how to handle.

/** Largest delay `setTimeout` honours; longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The stream went quiet for longer than the stall timeout. */
export class StreamStallError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the model stream stalled: no data for ${formatDuration(timeoutMs)}`);
    this.name = "StreamStallError";
  }
}

/**
 * Calls `onStall` once when the clock has run for `timeoutMs` without a `touch`. Until the first
 * `touch` the limit is `firstTimeoutMs` instead: a local model may think for minutes over a long
 * prompt before its first byte, and a retry would only start that work again. The clock runs
 * only between `resume` and `pause`, so time the caller spends on a yielded event (backpressure)
 * never counts as a stall. A `timeoutMs` of 0 (or less, or not finite) disables it.
 */
export class StallWatchdog {
  /** Set once `onStall` has been called. */
  stalled = false;
  private running = false;
  private touched = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly timeoutMs: number;
  private readonly firstTimeoutMs: number;

  constructor(timeoutMs: number, private readonly onStall: (waitedMs: number) => void, firstTimeoutMs = timeoutMs) {
    const limit = (ms: number) => (Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0);
    this.timeoutMs = limit(timeoutMs);
    this.firstTimeoutMs = this.timeoutMs === 0 ? 0 : Math.max(this.timeoutMs, limit(firstTimeoutMs));
  }

  /** Starts the clock with a full wait. */
  resume(): void {
    this.running = true;
    this.arm();
  }

  /** Stops the clock; `resume` starts a fresh wait. */
  pause(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Data arrived: restarts the wait if the clock is running. Safe to pass around unbound. */
  readonly touch = (): void => {
    this.touched = true;
    if (this.running) this.arm();
  };

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.timeoutMs === 0 || this.stalled) return;
    const wait = this.touched ? this.timeoutMs : this.firstTimeoutMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = false;
      this.stalled = true;
      this.onStall(wait);
    }, wait);
  }
}

/** Passes `items` through unchanged, calling `touch` as each one arrives. */
export async function* touching<T>(items: AsyncIterable<T>, touch: () => void): AsyncGenerator<T, void, undefined> {
  for await (const item of items) {
    touch();
    yield item;
  }
}

/** "120 s", "1.5 s", "200 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
