// A run's checkpoints: where they are kept (beside the project's sessions), the observer that
// records them around tool calls, and `/rewind`: files back as they were before a prompt, the
// conversation forked there, or both.
// The recorder and git's helpers load at the first tool call that may change files: a run that
// changes nothing (a one-shot question) never loads them.
import { join } from "node:path";
import type { AgentSession } from "../agent/session/agent-session.ts";
import type { ToolExecutionObserver } from "../agent/loop/tool-runner.ts";
import { CheckpointStore, TOOLS_CHANGING_NO_FILE, type Checkpoint } from "../coding/checkpoints/checkpoint-store.ts";
import type { CheckpointRecorder, PromptRef } from "../coding/checkpoints/recorder.ts";
import type { RewindPlan } from "../coding/checkpoints/rewind.ts";
import { cwdKey } from "../paths.ts";

export class SessionCheckpoints {
  private readonly recorders = new Map<string, CheckpointRecorder>();

  constructor(private readonly sessionsDir: string, private readonly session: () => AgentSession, private readonly warn: (message: string) => void) {}

  store(cwd = this.session().cwd): CheckpointStore {
    return new CheckpointStore(join(this.sessionsDir, cwdKey(cwd), "checkpoints"));
  }

  private async recorder(): Promise<CheckpointRecorder> {
    const dir = cwdKey(this.session().cwd);
    let recorder = this.recorders.get(dir);
    if (!recorder) {
      const { CheckpointRecorder } = await import("../coding/checkpoints/recorder.ts");
      this.recorders.set(dir, (recorder = new CheckpointRecorder(this.store(), this.warn)));
    }
    return recorder;
  }

  /** The prompt now running: the conversation and its last prompt; none for a run that keeps no session file. */
  private async prompt(): Promise<PromptRef | undefined> {
    const session = this.session();
    if (!session.state.session_file) return undefined;
    const { forkPoints } = await import("../agent/session/session-fork.ts");
    const last = forkPoints(session.messages).at(-1);
    return last ? { session: session.sessionId, index: last.index, text: last.text } : undefined;
  }

  /** What AgentSession calls around each tool execution. */
  observer(): ToolExecutionObserver {
    return {
      before: async (toolName, args, cwd) => {
        if (TOOLS_CHANGING_NO_FILE.has(toolName)) return;
        const prompt = await this.prompt();
        if (prompt) await (await this.recorder()).beforeTool(prompt, cwd, toolName, args);
      },
      after: async (toolName) => {
        if (TOOLS_CHANGING_NO_FILE.has(toolName)) return;
        const prompt = await this.prompt();
        if (prompt) await (await this.recorder()).afterTool(prompt, toolName);
      },
    };
  }

  /** This conversation's checkpoints, by prompt index. */
  list(): Checkpoint[] {
    return this.store().list(this.session().sessionId);
  }

  /** What rewinding the files to before prompt `index` would change. */
  async plan(index: number): Promise<RewindPlan> {
    const { planRewind } = await import("../coding/checkpoints/rewind.ts");
    return planRewind(this.store(), this.list().filter((c) => c.index >= index));
  }

  /** Rewinds the files to before prompt `index`; resolves with what changed. */
  async rewindFiles(index: number): Promise<RewindPlan> {
    const plan = await this.plan(index);
    (await import("../coding/checkpoints/rewind.ts")).applyRewind(plan);
    return plan;
  }

  /** A fork continues the conversation: it keeps the checkpoints of the prompts before its fork point. */
  carryTo(forkId: string, before: number, from: string): void {
    const store = this.store();
    for (const checkpoint of store.list(from)) if (checkpoint.index < before) store.save(forkId, checkpoint);
  }
}
