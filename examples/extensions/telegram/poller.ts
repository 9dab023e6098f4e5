// The getUpdates long-poll loop. It never throws: a failed poll waits (doubling from the first
// backoff up to the longest, or what a 429 asks for) and tries again, so the bridge survives the
// API going away and picks up where it left off (the offset) when it comes back. Only a refused
// token stops it, since no retry can fix that. The first poll of each start only collects what
// waited on the server (timeout 0): that backlog was sent while nobody listened.
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError, type BotApi, type IncomingMessage, type Update } from "./bot-api.ts";

export interface PollerEvents {
  /**
   * One message at a time, in order; the poll waits for it, so replies keep their order.
   * `backlog`: it was waiting on the server when polling started (sent while nobody listened).
   */
  onMessage(message: IncomingMessage, backlog: boolean): Promise<void> | void;
  /** A poll failed and the next one starts in `delayMs`; `attempt` counts failures in a row. */
  onTrouble(error: Error, delayMs: number, attempt: number): void;
  /** A poll succeeded after one or more failures. */
  onRecovered(): void;
  /** The API refused the token: polling stopped. */
  onFatal(error: ApiError): void;
  log(message: string): void;
}

export interface PollerTimings {
  timeoutS: number;
  backoffMs: { first: number; max: number };
}

/** The wait before retry number `attempt` (1-based): what a 429 asks for, else doubling up to `max`. */
export function backoffDelay(attempt: number, error: Error, backoffMs: { first: number; max: number }): number {
  if (error instanceof ApiError && error.retryAfterS !== undefined) return error.retryAfterS * 1000;
  return Math.min(backoffMs.max, backoffMs.first * 2 ** Math.min(attempt - 1, 30));
}

export class Poller {
  private offset: number | undefined;
  private controller: AbortController | undefined;
  private failures = 0;
  /** The last failure, while polling is failing; for /telegram status. */
  lastError: string | undefined;

  constructor(private readonly api: BotApi, private readonly timings: PollerTimings, private readonly events: PollerEvents) {}

  get running(): boolean {
    return this.controller !== undefined;
  }

  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    void this.loop(controller.signal)
      .catch((err: unknown) => this.events.log(`polling stopped: ${String(err)}`))
      .finally(() => {
        if (this.controller === controller) this.controller = undefined;
      });
  }

  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.failures = 0;
    this.lastError = undefined;
  }

  /** A callback that throws must not end the loop: polling is what keeps the bridge alive. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.events.log(`poller callback failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async loop(signal: AbortSignal): Promise<void> {
    // Comparing message dates with our clock would misjudge on a skewed clock; the server knows.
    let backlog = true;
    while (!signal.aborted) {
      let updates: Update[];
      try {
        updates = await this.api.getUpdates(this.offset, backlog ? 0 : this.timings.timeoutS, signal);
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && err.fatal) {
          this.lastError = err.message;
          this.safely(() => this.events.onFatal(err));
          return;
        }
        const error = err instanceof Error ? err : new Error(String(err));
        this.failures++;
        this.lastError = error.message;
        const delay = backoffDelay(this.failures, error, this.timings.backoffMs);
        this.safely(() => this.events.onTrouble(error, delay, this.failures));
        await sleep(delay, undefined, { signal }).catch(() => undefined);
        continue;
      }
      if (this.failures > 0) {
        this.failures = 0;
        this.lastError = undefined;
        this.safely(() => this.events.onRecovered());
      }
      for (const update of updates) {
        if (signal.aborted) return;
        // Confirmed before handling: a message that makes the handler fail must not come back forever.
        this.offset = update.updateId + 1;
        if (!update.message) continue;
        try {
          await this.events.onMessage(update.message, backlog);
        } catch (err) {
          this.events.log(`handling update ${update.updateId} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      backlog = false;
    }
  }
}
