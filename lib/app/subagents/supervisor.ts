// The parent's subagent supervisor: runs the agent tool's tasks as child zot processes, keeps their
// records, and emits subagent_start/subagent_stop on the parent's bus, stamped with the
// conversation that created the task. Foreground runs answer the tool call; detached runs go
// on in the background and hand their answer to the parent's next prompt, once.
import { dirname, join } from "node:path";
import { randomHex } from "../../random-id.ts";
import type { EventBus, SessionIdentity } from "../../agent/event-bus.ts";
import { projectKey } from "../../extensions/catalog/trust/gate.ts";
import { readTrust } from "../../extensions/catalog/trust/store.ts";
import type { Usage } from "../../providers/types.ts";
import type { AgentCallContext, AgentDelegate, AgentRequest } from "../../tools/agent.ts";
import { errorOutcome, textOutcome, type ToolOutcome } from "../../tools/types.ts";
import type { RunConfig } from "../run-config.ts";
import { describeSubagentTypes, loadSubagentTypes, type SubagentType } from "./subagent-types.ts";
import { childRunConfig } from "./child-config.ts";
import { emptyOutcome, runChild, type ChildOutcome, type SelfCommand } from "./child-run.ts";
import { SubagentRecords, projectOf, type SubagentRecord } from "./records.ts";
import { pruneWorktrees } from "./prune.ts";
import { selfCommand } from "./self-command.ts";
import { summaryLine } from "./summary.ts";
import { commitMessage, commitWorktree, createWorktree, type SubagentWorktree } from "./worktree.ts";

export const DEFAULT_AGENT_LIMIT_MS = 30 * 60_000;
export const DEFAULT_MAX_CONCURRENT_AGENTS = 4;
export const DEFAULT_MAX_SUBAGENT_DEPTH = 1;

/** What the supervisor needs to know of the parent right now. */
export interface ParentView {
  bus: EventBus;
  sessionId: string;
  /** The parent's working directory now (/cd moves it); new children start there. */
  cwd: string;
  /** The parent's session file; children keep theirs in an `agents` folder beside it. */
  sessionFile?: string;
  provider: string;
  model: string;
  jail: boolean;
  /** The tools the parent's model has now; a child gets at most these. */
  toolNames: string[];
}

export interface SubagentOptions {
  /** Depth of the agent this supervisor serves (0: the user's). */
  depth?: number;
  /** Children deeper than this get no agent tool (default 1: children cannot delegate). */
  maxDepth?: number;
  /** A runner is stopped as timed_out after this long (default 30 min). */
  limitMs?: number;
  /** Runners at the same time (default 4); more wait for a free slot. */
  maxConcurrent?: number;
  /** How zot starts itself (default: the running process's runtime and entry). */
  self?: SelfCommand;
}

export interface SupervisorOptions extends SubagentOptions {
  /** Where records and worktrees live. */
  home: string;
  env: Record<string, string | undefined>;
  /** The parent's run, which children inherit (their cwd is the parent's live one). */
  config: RunConfig;
  parent: () => ParentView;
  /** A returned child's usage, for the parent conversation `sessionId` that created it. */
  onChildUsage?: (sessionId: string, usage: Usage) => void;
  warn?: (message: string) => void;
}

interface LiveRun {
  controller: AbortController;
  done: Promise<void>;
}

export class SubagentSupervisor implements AgentDelegate {
  readonly records: SubagentRecords;
  private readonly live = new Map<string, LiveRun>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private readonly limitMs: number;
  private readonly maxConcurrent: number;
  private readonly depth: number;
  private readonly maxDepth: number;
  private readonly self: SelfCommand;
  private types: SubagentType[] = [];

  constructor(private readonly options: SupervisorOptions) {
    this.records = new SubagentRecords(join(options.home, "agents"));
    this.limitMs = options.limitMs ?? DEFAULT_AGENT_LIMIT_MS;
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_AGENTS);
    this.depth = options.depth ?? 0;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_SUBAGENT_DEPTH;
    this.self = options.self ?? selfCommand();
  }

  /** How many runners are running now. */
  get running(): number {
    return this.live.size;
  }

  /** This project's agents (the parent's working directory's), newest first. */
  list(): SubagentRecord[] {
    return this.records.list(projectKey(this.options.parent().cwd));
  }

  /** Removes the worktrees of this project's finished agents. */
  prune(force = false): Promise<string> {
    return pruneWorktrees(this.records, { project: projectKey(this.options.parent().cwd), force });
  }

  /** Re-reads the agent types offered in `cwd` (at start, on a cwd change and a reload). */
  async refreshTypes(cwd: string, plugins: ReadonlyArray<{ dir: string; plugin: string }> = []): Promise<void> {
    let pinned: Record<string, string> | undefined;
    try {
      pinned = (await readTrust({ home: this.options.home })).projects[projectKey(cwd)]?.agents;
    } catch (err) {
      this.options.warn?.(`project agent types are not offered: ${(err as Error).message}`);
    }
    this.types = loadSubagentTypes({ home: this.options.home, cwd, trustedProjectFiles: pinned, plugins,
      trustProject: this.options.config.extensions.trustProject, warn: (m) => this.options.warn?.(m) });
  }

  /** The agent types on offer, for the agent tool's description. */
  get agentTypes(): readonly SubagentType[] {
    return this.types;
  }

  describe(): string {
    return describeSubagentTypes(this.types);
  }

  get(id: string): SubagentRecord | undefined {
    return this.records.get(id);
  }

  /** Stops a running agent; false when it is not running here. Its stop event follows when it has exited. */
  stop(id: string): boolean {
    const run = this.live.get(id);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** The agent tool's entry point. */
  async run(request: AgentRequest, context: AgentCallContext): Promise<ToolOutcome> {
    const prepared = await this.prepare(request);
    if (typeof prepared === "string") return errorOutcome(`agent: ${prepared}`);
    const { record } = prepared;
    if (request.detach) {
      void this.launch(prepared, new AbortController(), undefined);
      return textOutcome(`Agent ${record.id} is running in the background${worktreeNote(record)}. `
        + "Its answer arrives at the start of a later turn; the user can follow it with /agents.");
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    context.signal.addEventListener("abort", onAbort, { once: true });
    if (context.signal.aborted) controller.abort();
    try {
      const { outcome, record: final } = await this.launch(prepared, controller, context.onProgress);
      return foregroundOutcome(record.id, outcome, worktreeNote(final));
    } finally {
      context.signal.removeEventListener("abort", onAbort);
    }
  }

  /** `/agents resume ID`: continues an agent in the background. */
  async resumeDetached(id: string, prompt: string): Promise<string> {
    const outcome = await this.run({ resume: id, prompt, detach: true }, { signal: new AbortController().signal });
    const text = outcome.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    if (outcome.isError) throw new Error(text);
    return text;
  }

  /**
   * The answers of detached agents of conversation `sessionId` that finished since the last
   * call, as notes for the model's next turn; each is handed over once.
   */
  async takeFinished(sessionId: string): Promise<string[]> {
    const notes: string[] = [];
    for (const record of this.records.list()) {
      if (!record.detached || record.delivered !== false || record.parent_session_id !== sessionId || record.status === "running") continue;
      await this.records.save({ ...record, delivered: true });
      notes.push(`[Detached agent ${record.id}${record.name ? ` (${record.name})` : ""} ${record.status}${worktreeNote(record)}]\n`
        + (record.status === "completed" ? record.answer ?? "" : `error: ${record.error ?? "unknown"}`));
    }
    return notes;
  }

  /**
   * Waits up to `waitMs` for running runners, then stops the rest and waits until they have
   * exited (their stop events are emitted as each returns).
   */
  async shutdown(waitMs: number): Promise<void> {
    if (this.live.size === 0) return;
    const all = () => Promise.all([...this.live.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    for (const run of this.live.values()) run.controller.abort();
    await all();
  }

  // ---- internals ---------------------------------------------------------------------------

  private async prepare(request: AgentRequest): Promise<Prepared | string> {
    const parent = this.options.parent();
    const project = projectKey(parent.cwd);
    const now = new Date().toISOString();
    let record: SubagentRecord;
    let worktree: SubagentWorktree | undefined;
    if (request.resume !== undefined) {
      const earlier = this.records.get(request.resume);
      if (!earlier) return `no agent with id "${request.resume}" (/agents lists them)`;
      if (projectOf(earlier) !== project) return `agent ${earlier.id} belongs to the project ${projectOf(earlier)}; resume it from there`;
      if (earlier.status === "running") return `agent ${earlier.id} is still running`;
      if (!earlier.session_file) return `agent ${earlier.id} kept no transcript to resume`;
      record = {
        ...earlier, status: "running", prompt: request.prompt, detached: request.detach === true, runs: earlier.runs + 1,
        agent_run_id: newId("run"), updated: now, owner_pid: process.pid,
      };
      delete record.answer;
      delete record.error;
      delete record.finished;
      delete record.delivered;
    } else {
      const id = newId("agent");
      if (request.type !== undefined && !this.typeNamed(request.type)) return this.unknownType(request.type);
      let cwd = parent.cwd;
      if (request.worktree) {
        try {
          worktree = await createWorktree(parent.cwd, join(this.options.home, "worktrees"), id);
        } catch (err) {
          return (err as Error).message;
        }
        cwd = worktree.cwd;
      }
      record = {
        id, ...(request.name ? { name: request.name } : {}), ...(request.type ? { type: request.type } : {}), project,
        parent_session_id: parent.sessionId, cwd, status: "running",
        detached: request.detach === true, prompt: request.prompt, agent_run_id: newId("run"), runs: 1,
        ...(parent.sessionFile ? { session_file: join(dirname(parent.sessionFile), "agents", `${id}.jsonl`) } : {}),
        ...(worktree ? { worktree: { branch: worktree.branch, path: worktree.path } } : {}),
        created: now, updated: now, owner_pid: process.pid,
      };
    }
    const type = record.type === undefined ? undefined : this.typeNamed(record.type);
    if (record.type !== undefined && !type) return this.unknownType(record.type);
    const config = childRunConfig(this.options.config, record, {
      ...(request.model ? { model: request.model } : {}), ...(request.tools ? { tools: request.tools } : {}), ...(type ? { type } : {}),
    }, parent);
    if (typeof config === "string") return config;
    return { record, config, identity: { id: record.parent_session_id, cwd: parent.cwd } };
  }

  private typeNamed(name: string): SubagentType | undefined {
    return this.types.find((t) => t.name === name);
  }

  private unknownType(name: string): string {
    const names = this.types.map((t) => t.name);
    return `no agent type "${name}" (${names.length > 0 ? `types: ${names.join(", ")}` : "none are defined"})`;
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (this.active >= this.maxConcurrent) {
      if (signal.aborted) return false;
      await new Promise<void>((wake) => {
        this.waiting.push(wake);
        signal.addEventListener("abort", () => wake(), { once: true });
      });
    }
    this.active++;
    return true;
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  /** Runs one runner invocation from start event to stop event; resolves with its outcome and final record. */
  private async launch(prepared: Prepared, controller: AbortController, onProgress?: (line: string) => void):
    Promise<{ outcome: ChildOutcome; record: SubagentRecord }> {
    const { record, config, identity } = prepared;
    const bus = this.options.parent().bus;
    let finish!: () => void;
    this.live.set(record.id, { controller, done: new Promise<void>((r) => (finish = r)) });
    const ids = { agent_id: record.id, agent_run_id: record.agent_run_id, name: record.name ?? record.type ?? record.id };
    await this.records.save(record);
    let outcome: ChildOutcome;
    let started = false;
    try {
      // A queued agent starts (and says so) only once a slot is free.
      if (!(await this.acquire(controller.signal))) {
        outcome = { ...emptyOutcome(), status: "cancelled", error: "the agent was cancelled before it started" };
      } else {
        started = true;
        bus.lifecycle({ type: "subagent_start", ...ids }, { session: identity });
        outcome = await runChild({
          self: this.self,
          spec: { config, prompt: record.prompt, agentId: record.id, ...(record.type ? { agentType: record.type } : {}),
            depth: this.depth + 1, maxDepth: this.maxDepth },
          env: this.options.env,
          signal: controller.signal,
          limitMs: this.limitMs,
          ...(onProgress ? { onToolCall: onProgress } : {}),
        });
      }
      if (started) this.options.onChildUsage?.(record.parent_session_id, outcome.usage);
      const worktree = record.worktree && outcome.status === "completed"
        ? { ...withoutCommitError(record.worktree), ...committed(await commitWorktree(record.worktree.path, commitMessage(record.id, record.name ?? record.prompt))) }
        : record.worktree;
      const now = new Date().toISOString();
      const final: SubagentRecord = {
        ...record, status: outcome.status, answer: outcome.answer, ...(outcome.error ? { error: outcome.error } : {}),
        ...(worktree ? { worktree } : {}), updated: now, finished: now, ...(record.detached ? { delivered: false } : {}),
      };
      await this.records.save(final).catch(() => undefined);
      this.live.delete(record.id); // the status line's count is right when stop is seen
      // The runner has returned (and its record says so): only now is its stop reported, cancellations included.
      if (started) bus.lifecycle({ type: "subagent_stop", ...ids, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) },
        { session: identity });
      return { outcome, record: final };
    } finally {
      // The slot frees after the stop event, so a queued agent's start always follows it.
      if (started) this.release();
      this.live.delete(record.id);
      finish();
    }
  }
}

interface Prepared {
  record: SubagentRecord;
  config: RunConfig;
  identity: SessionIdentity;
}

function newId(prefix: string): string {
  return `${prefix}-${randomHex(4)}`;
}

function withoutCommitError(worktree: NonNullable<SubagentRecord["worktree"]>): NonNullable<SubagentRecord["worktree"]> {
  const { commit_error: _, ...rest } = worktree;
  return rest;
}

/** What a commit attempt leaves in the record: the commit, or (on failure) nothing new. */
function committed(result: Awaited<ReturnType<typeof commitWorktree>>): { commit?: string; commit_error?: string } {
  if ("commit" in result) return { commit: result.commit };
  return "error" in result ? { commit_error: result.error } : {};
}

function worktreeNote(record: Pick<SubagentRecord, "worktree">): string {
  const w = record.worktree;
  if (!w) return "";
  const commit = w.commit_error ? `; its changes are not committed: ${w.commit_error}` : w.commit ? `, committed ${w.commit}` : "";
  return ` (branch ${w.branch}, worktree ${w.path}${commit})`;
}

function foregroundOutcome(id: string, outcome: ChildOutcome, where: string): ToolOutcome {
  const summary = `${summaryLine(id, outcome)}${where}`;
  if (outcome.status === "completed") return textOutcome(`${outcome.answer}\n\n${summary}`);
  return {
    ...errorOutcome(`${outcome.error ?? "the agent failed"}${outcome.answer ? `\n\nLast answer:\n${outcome.answer}` : ""}\n\n${summary}`,
      outcome.status),
  };
}
