// Serialises the agent's work: one prompt run, compaction or clear at a time, in arrival order.
// Each job gets its own AbortController; `abortCurrent` cancels the running job and
// `withdraw` removes waiting jobs that allow it (queued prompts) before they start. Withdrawn
// jobs settle after the running one, so its end is reported before theirs.

export interface Job<T> {
  /** Waiting prompts can be withdrawn; maintenance jobs (compact, clear) cannot. */
  withdrawable: boolean;
  run(signal: AbortSignal): Promise<T>;
  /** Called instead of `run` when the job is withdrawn; its result settles the job. */
  withdrawn?(): T;
  /** A label for the withdrawn list (the prompt text). */
  label?: string;
}

interface Entry {
  job: Job<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export class WorkQueue {
  private readonly waiting: Entry[] = [];
  private running: { controller: AbortController; afterwards: (() => void)[] } | undefined;
  private idleWaiters: (() => void)[] = [];

  get busy(): boolean {
    return this.running !== undefined;
  }

  get queued(): number {
    return this.waiting.length;
  }

  enqueue<T>(job: Job<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ job, resolve: resolve as (v: unknown) => void, reject });
      void this.pump();
    });
  }

  /** Cancels the running job; it settles through its own cancellation path. */
  abortCurrent(): void {
    this.running?.controller.abort();
  }

  /** Removes every waiting withdrawable job, settling each with its `withdrawn()` result. */
  withdraw(): string[] {
    const removed = this.waiting.filter((entry) => entry.job.withdrawable);
    const kept = this.waiting.filter((entry) => !entry.job.withdrawable);
    this.waiting.splice(0, this.waiting.length, ...kept);
    const settle = () => {
      for (const entry of removed) {
        try {
          entry.resolve(entry.job.withdrawn?.());
        } catch (err) {
          entry.reject(err);
        }
      }
      this.notifyIdle();
    };
    if (this.running) this.running.afterwards.push(settle);
    else settle();
    return removed.map((entry) => entry.job.label ?? "");
  }

  /** Resolves once nothing is running or waiting. */
  idle(): Promise<void> {
    if (!this.running && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const entry = this.waiting.shift();
    if (!entry) {
      this.notifyIdle();
      return;
    }
    const controller = new AbortController();
    const running = { controller, afterwards: [] as (() => void)[] };
    this.running = running;
    try {
      entry.resolve(await entry.job.run(controller.signal));
    } catch (err) {
      entry.reject(err);
    } finally {
      this.running = undefined;
    }
    for (const settle of running.afterwards) settle();
    void this.pump();
  }

  private notifyIdle(): void {
    if (this.running || this.waiting.length > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
