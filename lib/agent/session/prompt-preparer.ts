// The effective system prompt: the assembled base prompt passed through the before_agent_start
// chain once per preparation pass. The result stays stable across prompts, retries and tool
// steps until `reset()` (model change, clear, session change, extension reload). A reset while
// a pass is waiting discards that pass and runs a fresh one (new agent_run_id) against the
// current base prompt; cancellation commits nothing.
import { abortError, isAbortError, raceAbort } from "../loop/abort.ts";
import type { AgentHooks } from "../contracts/hooks.ts";
import { randomUuid } from "../../random-id.ts";

export interface PreparerIdentity {
  sessionId: string;
  cwd: string;
  provider: string;
  model: string;
}

export interface SystemPromptPreparerOptions {
  /** Builds the unmodified base prompt; called at the start of each pass. */
  base: () => string;
  /** Read at each preparation: extensions may be attached after the session is built. */
  hooks: () => AgentHooks;
  identity: () => PreparerIdentity;
  newRunId?: () => string;
}

export class SystemPromptPreparer {
  private generation = 0;
  private prepared: { generation: number; prompt: string; runId: string } | undefined;
  private pending: Promise<string> | undefined;
  private lastRunId: string | undefined;

  constructor(private readonly options: SystemPromptPreparerOptions) {}

  /** The agent_run_id of the latest committed (or running) pass. */
  get agentRunId(): string | undefined {
    return this.lastRunId;
  }

  /** The committed prompt, if a pass has completed since the last reset. */
  get current(): string | undefined {
    return this.prepared?.generation === this.generation ? this.prepared.prompt : undefined;
  }

  /** Forgets the prepared prompt: the next `get()` rebuilds from the base and reruns the chain. */
  reset(): void {
    this.generation++;
    this.prepared = undefined;
  }

  /** The effective prompt, preparing it first when needed. Rejects with an AbortError on cancellation. */
  async get(signal?: AbortSignal): Promise<string> {
    for (;;) {
      const ready = this.current;
      if (ready !== undefined) return ready;
      if (!this.pending) {
        const pass = this.runPass(signal);
        this.pending = pass;
        void pass.finally(() => {
          if (this.pending === pass) this.pending = undefined;
        }).catch(() => undefined);
      }
      try {
        await raceAbort(this.pending, signal);
      } catch (err) {
        // Another caller's cancelled pass is not ours to fail on: loop and run a fresh one.
        if (signal?.aborted || !isAbortError(err)) throw err;
      }
    }
  }

  private async runPass(signal?: AbortSignal): Promise<string> {
    const generation = this.generation;
    const runId = (this.options.newRunId ?? randomUuid)();
    this.lastRunId = runId;
    const identity = this.options.identity();
    const prompt = await this.options.hooks().beforeAgentStart({
      ...identity,
      agentRunId: runId,
      systemPrompt: this.options.base(),
      signal,
    });
    if (signal?.aborted) throw abortError();
    // A reset during the pass makes its result stale: the caller's loop starts a new pass.
    if (generation === this.generation) this.prepared = { generation, prompt, runId };
    return prompt;
  }
}
