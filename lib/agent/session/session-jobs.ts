// The session's work as jobs on one queue, with the event contract every mode relies on: a
// prompt is announced (`user_prompt_submit`, `queued` when other work runs or waits) when it is
// accepted and ends with exactly one `done`, also when it is withdrawn before it ran;
// maintenance (compaction, clear, a conversation switch) waits its turn and is never withdrawn.
// Apart from AgentSession so that contract lives in one place, whatever the job runs.
import type { RunResult } from "../contracts/loop-options.ts";
import type { Emitter } from "../contracts/emitter.ts";
import { WorkQueue } from "./work-queue.ts";

export class SessionJobs {
  private readonly queue = new WorkQueue();

  constructor(private readonly emitter: Emitter) {}

  /** A job is running. */
  get busy(): boolean {
    return this.queue.busy;
  }

  /** Jobs waiting behind the running one. */
  get queued(): number {
    return this.queue.queued;
  }

  /** Announces a prompt now and runs it in its turn; settles with its run's result. */
  submitPrompt(text: string, imageCount: number, run: (signal: AbortSignal) => Promise<RunResult>): Promise<RunResult> {
    const queued = this.queue.busy || this.queue.queued > 0;
    this.emitter.lifecycle({
      type: "user_prompt_submit",
      ...(text !== "" ? { text } : {}),
      ...(queued ? { queued: true } : {}),
      ...(imageCount > 0 ? { image_count: imageCount } : {}),
    });
    const finish = (result: RunResult): RunResult => {
      this.emitter.host({ type: "done", stop: result.stop, ...(result.error !== undefined ? { error: result.error } : {}) });
      return result;
    };
    return this.queue.enqueue<RunResult>({
      withdrawable: true,
      label: text,
      run: async (signal) => finish(await run(signal)),
      withdrawn: () => finish({ stop: "aborted", error: "withdrawn from the queue before it ran", text: "" }),
    });
  }

  /** Runs maintenance after any running work; abort() cancels it but never withdraws it. */
  maintain<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.queue.enqueue({ withdrawable: false, run });
  }

  /** Cancels the running job and, unless `keepQueued`, withdraws waiting prompts (returns their texts). */
  abort(options: { keepQueued?: boolean }): string[] {
    const withdrawn = options.keepQueued ? [] : this.queue.withdraw();
    this.queue.abortCurrent();
    return withdrawn;
  }

  /** Resolves when nothing is running or waiting. */
  idle(): Promise<void> {
    return this.queue.idle();
  }
}
