// A run's checkpoints: where they are kept (beside the project's sessions), the observer that
// records them around tool calls, and `/rewind`: files back as they were before a prompt, the
// conversation forked there, or both.
import { join } from "node:path";
import type { AgentSession } from "../agent/session/agent-session.ts";
import { forkPoints } from "../agent/session/session-fork.ts";
import type { ToolExecutionObserver } from "../agent/loop/tool-runner.ts";
import { CheckpointStore, type Checkpoint } from "../coding/checkpoints/checkpoint-store.ts";
import { CheckpointRecorder, type PromptRef } from "../coding/checkpoints/recorder.ts";
import { applyRewind, planRewind, type RewindPlan } from "../coding/checkpoints/rewind.ts";
import { cwdKey } from "../paths.ts";

export class SessionCheckpoints {
  private readonly recorders = new Map<string, CheckpointRecorder>();

  constructor(private readonly sessionsDir: string, private readonly session: () => AgentSession, private readonly warn: (message: string) => void) {}

  store(cwd = this.session().cwd): CheckpointStore {
    return new CheckpointStore(join(this.sessionsDir, cwdKey(cwd), "checkpoints"));
  }

  private recorder(): CheckpointRecorder {
    const dir = cwdKey(this.session().cwd);
    let recorder = this.recorders.get(dir);
    if (!recorder) this.recorders.set(dir, (recorder = new CheckpointRecorder(this.store(), this.warn)));
    return recorder;
  }

  /** The prompt now running: the conversation and its last prompt; none for a run that keeps no session file. */
  private prompt(): PromptRef | undefined {
    const session = this.session();
    const last = forkPoints(session.messages).at(-1);
    return session.state.session_file && last ? { session: session.sessionId, index: last.index, text: last.text } : undefined;
  }

  /** What AgentSession calls around each tool execution. */
  observer(): ToolExecutionObserver {
    return {
      before: async (toolName, args, cwd) => {
        const prompt = this.prompt();
        if (prompt) await this.recorder().beforeTool(prompt, cwd, toolName, args);
      },
      after: async (toolName) => {
        const prompt = this.prompt();
        if (prompt) await this.recorder().afterTool(prompt, toolName);
      },
    };
  }

  /** This conversation's checkpoints, by prompt index. */
  list(): Checkpoint[] {
    return this.store().list(this.session().sessionId);
  }

  /** What rewinding the files to before prompt `index` would change. */
  plan(index: number): Promise<RewindPlan> {
    return planRewind(this.store(), this.list().filter((c) => c.index >= index));
  }

  /** Rewinds the files to before prompt `index`; resolves with what changed. */
  async rewindFiles(index: number): Promise<RewindPlan> {
    const plan = await this.plan(index);
    applyRewind(plan);
    return plan;
  }

  /** A fork continues the conversation: it keeps the checkpoints of the prompts before its fork point. */
  carryTo(forkId: string, before: number, from: string): void {
    const store = this.store();
    for (const checkpoint of store.list(from)) if (checkpoint.index < before) store.save(forkId, checkpoint);
  }
}
