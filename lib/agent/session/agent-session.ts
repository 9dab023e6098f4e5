// AgentSession: the object every mode drives. It holds the conversation (transcript, session
// file, usage), the system prompt preparation, the guarded tool calls and the job queue, and
// runs the pure loop for each prompt. All observations go out on the EventBus; every accepted
// prompt ends with exactly one `done` host event (also when it is withdrawn, see SessionJobs).
import { EventBus } from "../event-bus.ts";
import { SessionEmitter } from "./emitter.ts";
import { NO_HOOKS, type AgentHooks, type InterceptedPrompt } from "../contracts/hooks.ts";
import type { RunResult } from "../contracts/loop-options.ts";
import type { SettledToolCall } from "../contracts/tool-call.ts";
import { runAgentLoop } from "../loop/loop.ts";
import { SystemPromptPreparer } from "./prompt-preparer.ts";
import { sessionBasePrompt } from "../../coding/system-prompt.ts";
import { attachMentions } from "../../coding/mentions.ts";
import { runToolPromptTurn, userMessage } from "../loop/tool-prompt.ts";
import { SessionToolCalls } from "./session-tool-calls.ts";
import { SessionJobs } from "./session-jobs.ts";
import { Workplace } from "./workplace.ts";
import { compactionDone, Compactor } from "../compaction/compactor.ts";
import { Conversation } from "./conversation.ts";
import type { Transcript } from "./transcript.ts";
import { userMessageEvent } from "../stream-blocks.ts";
import { modelInfo } from "../../providers/models.ts";
import { emptyUsage } from "../../providers/usage.ts";
import type {
  AgentSessionOptions, AgentState, CompactResult, PromptOptions, RunToolContext, ToolPromptOptions,
} from "./agent-options.ts";
import type { Message, Provider, Usage } from "../../providers/types.ts";
import type { Tool } from "../../tools/types.ts";
import type { OpenedSession } from "./session-select.ts";
import { randomHex } from "../../random-id.ts";
import { askAside, type SideAnswer } from "./side-question.ts";

export const DEFAULT_MAX_STEPS = 50;

export class AgentSession {
  readonly bus: EventBus;
  readonly maxSteps: number;
  private readonly options: AgentSessionOptions;
  private hooks: AgentHooks;
  private extensionTools: () => Tool[];
  private readonly emitter: SessionEmitter;
  private readonly jobs: SessionJobs;
  private readonly toolCalls: SessionToolCalls;
  private readonly preparer: SystemPromptPreparer;
  private conversation: Conversation;
  private readonly compactor: Compactor;
  /** The working directory and its tools; the system prompt and event stamps follow it. */
  private place: Workplace;
  private provider: Provider;
  private model: string;
  private jailOn: boolean;

  constructor(options: AgentSessionOptions) {
    this.options = options;
    this.place = this.workplaceAt(options.cwd);
    this.provider = options.provider;
    this.model = options.model;
    this.hooks = options.hooks ?? NO_HOOKS;
    this.extensionTools = options.extraTools ?? (() => []);
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.jailOn = options.jail ?? false;
    const opened = options.session;
    const sessionId = opened?.id ?? `mem-${randomHex(6)}`;
    this.bus = options.bus ?? new EventBus({ id: sessionId, cwd: this.cwd });
    this.bus.bindSession(() => ({ id: this.sessionId, cwd: this.cwd }));
    this.emitter = new SessionEmitter(this.bus);
    this.jobs = new SessionJobs(this.emitter);
    this.conversation = new Conversation(sessionId, opened, this.emitter);
    this.toolCalls = new SessionToolCalls({
      emit: this.emitter, place: () => this.place, hooks: () => this.hooks, warn: (m) => this.warn(m),
      yolo: options.yolo, confirmer: options.confirmer,
      interactiveTools: options.interactiveTools, onActivateTools: options.onActivateTools,
      ...(options.toolExecution ? { execution: options.toolExecution } : {}),
    });
    this.preparer = new SystemPromptPreparer({
      base: () => sessionBasePrompt(this.options.prompt ?? {}, {
        cwd: this.cwd, tools: [...this.tools().values()], skills: this.options.skills, warn: (m) => this.warn(m),
      }),
      hooks: () => this.hooks,
      identity: () => ({ sessionId: this.sessionId, cwd: this.cwd, provider: this.provider.name, model: this.model }),
    });
    this.compactor = new Compactor({
      emit: this.emitter,
      transcript: () => this.conversation.transcript,
      provider: () => this.provider,
      model: () => this.model,
      contextWindow: () => this.contextWindow,
      settings: options.compaction,
      newId: () => this.newId("compact"),
      onUsage: (usage) => this.conversation.addUsage(usage),
    });
  }

  // ---- observation -------------------------------------------------------------------------

  get cwd(): string {
    return this.place.cwd;
  }

  get sessionId(): string {
    return this.transcript.id;
  }

  /** Counts what a subagent of conversation `sessionId` spent, if that conversation is still the open one. */
  addChildUsage(sessionId: string, spent: Usage): void {
    if (sessionId === this.sessionId) this.conversation.addChildUsage(spent);
  }

  get messages(): readonly Message[] {
    return this.transcript.messages;
  }

  get running(): boolean {
    return this.jobs.busy;
  }

  get state(): AgentState {
    return {
      session_id: this.transcript.id,
      ...(this.transcript.path ? { session_file: this.transcript.path } : {}),
      cwd: this.cwd,
      provider: this.provider.name,
      model: this.model,
      running: this.jobs.busy,
      queued: this.jobs.queued,
      message_count: this.transcript.messages.length,
      token_estimate: this.transcript.tokenEstimate(),
      context_window: this.contextWindow,
      usage: this.conversation.usage,
      yolo: this.toolCalls.yolo,
      jail: this.jailOn,
      max_steps: this.maxSteps,
      ...(this.preparer.agentRunId ? { agent_run_id: this.preparer.agentRunId } : {}),
    };
  }

  /** The tools the model can call now: built-ins, then extension tools not shadowed by them. */
  tools(): Map<string, Tool> {
    return this.place.tools.current();
  }

  /** The effective system prompt (runs the before_agent_start chain when not prepared yet). */
  systemPrompt(signal?: AbortSignal): Promise<string> {
    return this.preparer.get(signal);
  }

  get contextWindow(): number {
    return this.options.contextWindow ?? modelInfo(this.provider.name, this.model).context_window;
  }

  /** What an extension host shows extensions (hello_ack, get_state): the live provider and model. */
  info(): { provider: string; model: string } {
    return { provider: this.provider.name, model: this.model };
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /**
   * Attaches extensions to a session built without them: their interception points and their
   * tools (asked for at every step). Done before the extensions start, so a `call_tool` during
   * startup already passes the interceptors of the extensions that are ready.
   */
  attachExtensions(extensions: { hooks: AgentHooks; tools: () => Tool[] }): void {
    this.hooks = extensions.hooks;
    this.extensionTools = extensions.tools;
  }

  /** Emits `session_start` now (interactive and rpc modes); headless modes may skip this. */
  start(): void {
    this.reportRepairs();
    this.emitter.start();
  }

  /**
   * Emits, once, an `error` event for each repair made while loading the session file (skipped
   * lines, tool calls marked interrupted). Also done by start() and the first prompt; a mode
   * calls it as soon as it listens to the bus.
   */
  reportRepairs(): void {
    this.conversation.reportRepairs();
  }

  /** Resolves when no run, compaction or clear is running or waiting. */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  /**
   * Ends the session: optionally aborts running work, waits for the queue to drain, then emits
   * `session_end` (reason shutdown) if the session had started.
   */
  async close(options: { abort?: boolean } = {}): Promise<void> {
    if (options.abort) this.abort();
    await this.jobs.idle();
    this.emitter.end("shutdown");
  }

  // ---- input -------------------------------------------------------------------------------

  /**
   * Submits model input. `user_prompt_submit` is emitted at acceptance (`queued: true` when a
   * run or maintenance job is active); the returned promise settles when this prompt's run ends.
   * Throws for a prompt with neither text nor images.
   */
  prompt(text: string, options: PromptOptions = {}): Promise<RunResult> {
    const images = options.images ?? [];
    if (!text.trim() && images.length === 0) return Promise.reject(new Error("empty prompt: give text or images"));
    this.reportRepairs();
    return this.jobs.submitPrompt(text, images.length, async (signal) => {
      // Interceptors see the prompt as it is about to reach the model: a block keeps it out of the transcript.
      const verdict = await this.hooks.interceptPrompt({ text, imageCount: images.length }, signal).catch(() => ({ block: false } as InterceptedPrompt));
      if (signal.aborted) return { stop: "aborted", text: "" };
      if (verdict.block) return { stop: "blocked", error: verdict.reason?.trim() ? verdict.reason : "the prompt was blocked by an extension", text: "" };
      const notes = [...(await this.options.pendingNotes?.(this.transcript.id).catch(() => [])) ?? [], ...options.context ?? []];
      const prompted = userMessage(text, images);
      const textBlocks = (texts: readonly string[]) => texts.map((t) => ({ type: "text" as const, text: t }));
      // `@path` mentions attach the file or folder, after the prompt as typed and before what hooks added.
      const added = [...attachMentions(text, { cwd: this.cwd, jail: this.jailOn }).map((a) => a.text), ...(verdict.context ?? [])];
      const message = notes.length || added.length
        ? { ...prompted, content: [...textBlocks(notes), ...prompted.content, ...textBlocks(added)] } : prompted;
      this.transcript.append(message);
      this.emitter.host(userMessageEvent(message));
      return this.runLoop(signal, options.model);
    });
  }

  /**
   * The `tool_prompt` command action: submits `prompt`, runs `toolName` through interception
   * and confirmation, records the paired assistant call and tool result, then runs the model
   * turn. Cancellation stops before the model turn and keeps a completed pair.
   */
  runToolPrompt(prompt: string, toolName: string, toolArgs: Record<string, unknown>, options: ToolPromptOptions = {}): Promise<RunResult> {
    const origin = options.originExtension;
    this.reportRepairs();
    return this.jobs.submitPrompt(prompt, 0, (signal) => runToolPromptTurn({
      prompt, toolName, toolArgs, ...(origin ? { originExtension: origin } : {}), toolId: this.newId("toolu_ext"),
      provider: this.provider.name, model: this.model, transcript: this.transcript, emit: this.emitter,
      execute: (call) => this.toolCalls.run(call, signal),
    }, signal, () => this.runLoop(signal)));
  }

  /**
   * An extension's `call_tool` (or an MCP client's call through `zot mcp serve`): the active
   * registry, interception and confirmation, events marked with `origin_extension` when an
   * extension asked, nothing written to the transcript. Never throws.
   */
  runTool(name: string, args: Record<string, unknown>, context: RunToolContext): Promise<SettledToolCall> {
    return this.toolCalls.runOutsideTurn(name, args, { ...context, toolId: context.toolId ?? this.newId("ext_call") });
  }

  /**
   * Cancels the running job (a run ends `aborted`, a compaction `cancelled`) and, unless
   * `keepQueued`, withdraws queued prompts (each still gets its `done`). Returns the withdrawn
   * prompt texts, e.g. to put them back in the editor.
   */
  abort(options: { keepQueued?: boolean } = {}): string[] {
    return this.jobs.abort(options);
  }

  // ---- maintenance -------------------------------------------------------------------------

  /**
   * Compacts the transcript now (after any running work); pre/post_compact are always paired.
   * With `reportDone` (rpc's compact) the attempt ends with a `done` event, as a prompt does.
   */
  compact(options: { reportDone?: boolean } = {}): Promise<CompactResult> {
    return this.jobs.maintain(async (signal) => {
      const result = await this.compactor.run(signal);
      if (options.reportDone) this.emitter.host(compactionDone(result));
      return result;
    });
  }

  /** A side question (/btw): answered from the conversation, never added to it; its usage counts. */
  async btw(question: string, signal?: AbortSignal): Promise<SideAnswer> {
    const system = await this.systemPrompt(signal);
    const answer = await askAside({ provider: this.provider, model: this.model, system, messages: this.messages, question,
      ...(signal ? { signal } : {}) });
    if (answer.usage) this.conversation.addUsage(answer.usage);
    return answer;
  }

  /** Empties the transcript (after any running work). The conversation stays open. */
  clear(): Promise<void> {
    return this.jobs.maintain(async () => {
      this.transcript.clear();
      this.preparer.reset();
    });
  }

  /**
   * Continues in another conversation (after any running work): `session_end` with reason
   * session_switch for the old one, `session_start` for the new one, and a rebuilt system
   * prompt. Cumulative usage starts again from zero.
   */
  switchSession(opened: OpenedSession): Promise<void> {
    return this.continueIn("session_switch", opened);
  }

  /**
   * Continues in another working directory (after any running work), as switchSession does
   * but with reason cwd_change: built-in tools (and so the jail root), the system prompt's
   * context files and event stamps follow `cwd`, and `opened` is a conversation of that
   * directory. `beforeStart` runs between the old end and the new start (the runtime moves
   * the extensions there, so the new set sees the new `session_start`).
   */
  changeCwd(cwd: string, opened: OpenedSession, beforeStart?: () => Promise<void>): Promise<void> {
    return this.continueIn("cwd_change", opened, async () => {
      this.place = this.workplaceAt(cwd);
      await beforeStart?.();
    });
  }

  /** Switches the model (and optionally the provider) from the next model step on. */
  setModel(model: string, provider?: Provider): void {
    if (provider) this.provider = provider;
    this.model = model;
    this.transcript.recordModel(this.provider.name, model);
    this.preparer.reset();
  }

  /** Forces the next model call to rebuild the system prompt (extension reload, SYSTEM.md edits). */
  resetSystemPrompt(): void {
    this.preparer.reset();
  }

  get yolo(): boolean {
    return this.toolCalls.yolo;
  }

  setYolo(on: boolean): void {
    this.toolCalls.yolo = on;
  }

  get jail(): boolean {
    return this.jailOn;
  }

  setJail(on: boolean): void {
    this.jailOn = on;
  }

  // ---- internals ---------------------------------------------------------------------------

  private get transcript(): Transcript {
    return this.conversation.transcript;
  }

  private workplaceAt(cwd: string): Workplace {
    const { tools, builtinTools, skills, onToolDropped } = this.options;
    return new Workplace(cwd, { tools, builtinTools, skills, onToolDropped, jail: () => this.jailOn, extensionTools: () => this.extensionTools() });
  }

  /**
   * One conversation boundary: the old activation's `session_end`, then the new transcript,
   * `between` (still without a start, unless something observable happens there), and the
   * new `session_start`.
   */
  private continueIn(reason: "session_switch" | "cwd_change", opened: OpenedSession, between?: () => Promise<void>): Promise<void> {
    return this.jobs.maintain(async () => {
      this.emitter.end(reason);
      this.conversation = new Conversation(opened.id, opened, this.emitter);
      this.emitter.rearm();
      try {
        await between?.();
      } finally {
        this.preparer.reset();
        this.emitter.start();
        this.reportRepairs();
      }
    });
  }

  private runLoop(signal: AbortSignal, model?: string): Promise<RunResult> {
    // One unhelpful automatic compaction per run is enough: retrying every step would only
    // spend requests on a transcript that cannot shrink further.
    let autoCompaction = true;
    return runAgentLoop({
      provider: this.provider,
      model: () => model ?? this.model,
      ...(this.options.reasoning ? { reasoning: this.options.reasoning } : {}),
      ...(this.options.maxTokens ? { maxTokens: this.options.maxTokens } : {}),
      messages: () => this.transcript.messages,
      append: (message) => this.transcript.append(message),
      systemPrompt: (s) => this.preparer.get(s),
      tools: () => this.tools(),
      hooks: this.hooks,
      emit: this.emitter,
      signal,
      maxSteps: this.maxSteps,
      runTool: (call) => this.toolCalls.run(call, signal),
      beforeStep: async (s) => {
        if (autoCompaction) autoCompaction = await this.compactor.maybeAuto(s, this.preparer.current ?? "");
      },
      onStepEnd: (message) => this.conversation.addUsage(message.usage ?? emptyUsage()),
      dropTool: (name, error) => this.place.tools.drop(name, error),
    });
  }

  private warn(message: string): void {
    if (this.options.onWarning) this.options.onWarning(message);
    else this.emitter.host({ type: "error", message });
  }

  private newId(prefix: string): string {
    return this.options.newId?.() ?? `${prefix}_${randomHex(8)}`;
  }
}
