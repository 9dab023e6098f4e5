// The hook runner: hooks in Claude Code's shape as one more extension driver. To the host it is
// an extension that said `intercept_v2` and subscribed to the points and events its hooks need;
// each moment runs the matching command hooks (a process each, in parallel, identical commands
// once) with Claude Code's input on stdin, and their replies become the interception answer
// (hook-answers.ts). The host does not know about hooks.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { INTERCEPT_V2, type EventInterceptResponseFrame, type NotifyFrame } from "../../../protocol/index.ts";
import { errorOutcome, type ToolContent, type ToolOutcome } from "../../../tools/types.ts";
import { SUBAGENT_ID_VAR, SUBAGENT_TYPE_VAR } from "../../../process/escapees.ts";
import { zotPaths } from "../../../paths.ts";
import { parseHooks, type HookCommand, type HookEvent } from "../../catalog/hook-settings.ts";
import type { Reply } from "../connection.ts";
import type { CommandReply, DriverContext, ExtensionDriver } from "../extension.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import { openExtensionLog, type ExtensionLog, type IsolationReport } from "../spawn.ts";
import { claudeToolResponse, fromClaudeInput, toClaudeCall } from "./claude-tools.ts";
import { ClaudeTranscript, claudeTranscriptPath } from "./claude-transcript.ts";
import { permissionRequestAnswer, postToolUseAnswer, preToolUseAnswer, startContext, stopAnswer, userPromptAnswer } from "./hook-answers.ts";
import { matcherMatches, matcherProblem, permissionRuleMatches } from "./hook-matcher.ts";
import { readHookReply, stringField, type HookReply } from "./hook-output.ts";
import { LaterContext } from "./later-context.ts";
import { withEnvFile } from "./env-file.ts";
import { runHookProcess, type HookProcessResult } from "./hook-process.ts";
import { DEADLINE_MARGIN_MS, END_REASONS, OBSERVED, ownerOf, POINTS } from "./hook-points.ts";
import { COMMAND_TIMEOUT_MS, MarkdownCommands } from "./markdown-commands.ts";

type Payload = Record<string, unknown> & { event: string };
type Answer = Omit<EventInterceptResponseFrame, "type" | "id">;

const NEVER_WRITTEN = Promise.resolve(false);

export class HooksDriver implements ExtensionDriver {
  readonly execLabel = "hooks";
  readonly toolLabel = "Hook";
  readonly usesSdk = false;
  private hooks: HookCommand[] = [];
  private log_: ExtensionLog | undefined;
  private isolationChoice: Isolation | undefined;
  private isolationReport: IsolationReport | null = null;
  private sessionId = "";
  private transcript: ClaudeTranscript | undefined;
  private transcriptPath = "";
  /** The SessionStart (or SubagentStart) run of each session, and the context it gave. */
  private readonly starts = new Map<string, Promise<string | undefined>>();
  private readonly running = new Set<Promise<unknown>>();
  /** The observe-only hooks' queue. */
  private observed: Promise<void> = Promise.resolve();
  private readonly stopAll = new AbortController();
  private requests = 0;
  /** What hooks that ran in the background left for the model. */
  private readonly later = new LaterContext();
  /** A prompt's run is going on: a compaction now is automatic; between runs it was asked for (/compact). */
  private inRun = false;
  private readonly subagent = process.env[SUBAGENT_ID_VAR];
  /** A plugin's or a command folder's Markdown commands. */
  private commands: MarkdownCommands | undefined;

  constructor(private readonly context: DriverContext) {}

  private get ext() {
    return this.context.ext;
  }

  get logPath(): string | undefined {
    return this.log_?.logPath;
  }

  get isolation(): IsolationReport | null {
    return this.isolationReport;
  }

  log(message: string): void {
    this.log_?.log(message);
  }

  /** Hooks of `event` in this bundle. */
  private of(event: HookEvent): HookCommand[] {
    return this.hooks.filter((h) => h.event === event);
  }

  start(): void {
    const { ext, sink } = this.context;
    const where = ext.source ?? ext.dir;
    this.log_ = openExtensionLog(sink.logPath(ext.name), `hooks of ${where}`);
    const parsed = parseHooks(ext.candidate.loaded!.manifest.hooks ?? {}, where);
    this.hooks = parsed.hooks;
    const loaded = ext.candidate.loaded!;
    if (loaded.kind === "plugin" || loaded.kind === "commands") {
      this.commands = new MarkdownCommands(ext.name, loaded.manifest.commands ?? [], ext.dir, loaded.kind === "plugin");
      ext.commands.push(...this.commands.registrations());
    }
    for (const problem of parsed.problems) ext.warn(problem);
    for (const matcher of new Set(this.hooks.map((h) => h.matcher))) {
      const problem = matcherProblem(matcher);
      if (problem) ext.warn(`${where}: ${problem}`);
    }
    const isolation = sink.isolationFor?.(ext.candidate);
    if (!isolation) return this.ready();
    void isolation.then((choice) => {
      this.isolationChoice = choice;
      this.ready();
    }).catch((err: unknown) => ext.fail(`cannot start: ${(err as Error).message}`));
  }

  private ready(): void {
    const ext = this.ext;
    if (ext.stopping || ext.phase !== "starting") return;
    ext.capabilities.add(INTERCEPT_V2);
    ext.phase = "registering";
    const commands = (this.commands?.list.length ?? 0) > 0;
    // Commands need tool_call (their allowed-tools) and the end of their prompt's run.
    // Any hook may go on in the background; what it leaves reaches the model at the next prompt or tool result.
    const carriers = this.hooks.length > 0 ? ["user_prompt_submit", "tool_result"] : [];
    const intercepts = Object.entries(POINTS).filter(([point, events]) => events.some((e) => this.of(e).length > 0)
      || (commands && point === "tool_call") || carriers.includes(point)).map(([point]) => point);
    const longest = Math.max(0, ...this.hooks.map((h) => h.timeoutS * 1000));
    ext.subscribe(this.hooks.length || commands ? OBSERVED : [], intercepts, Math.min(longest + DEADLINE_MARGIN_MS, this.context.timeouts.interceptMax));
    if (commands) ext.registrationChanged();
    ext.becomeReady("ready");
  }

  newRequestId(kind: string): string {
    return `hooks-${kind}-${++this.requests}`;
  }

  async callTool(): Promise<ToolOutcome> {
    return errorOutcome(`${this.ext.name} runs hooks; it has no tools`);
  }

  async invokeCommand(name: string, args: string): Promise<CommandReply> {
    if (!this.commands) return { error: `/${name}: ${this.ext.name} has no such command` };
    return this.commands.invoke(name, args, { cwd: this.cwd,
      run: async (line) => {
        const run = await this.spawnLine(line, "", COMMAND_TIMEOUT_MS, { CLAUDE_CODE_SESSION_ID: this.sessionId });
        return { output: `${run.stdout}${run.stderr}${run.timedOut ? `\n[timed out after ${COMMAND_TIMEOUT_MS / 1000} s]` : ""}`, ok: run.code === 0 };
      } });
  }

  // Lifecycle events: the session, the transcript, and the hooks that only observe ------------

  deliver(frame: Record<string, unknown> & { type: string }): boolean {
    if (frame.type !== "event" || typeof frame.event !== "string") return false;
    const event = frame as unknown as Payload;
    if (typeof event.session_id === "string") this.noteSession(event.session_id);
    this.transcript?.record(event);
    switch (event.event) {
      case "session_start":
        void this.sessionStart(this.sessionId);
        break;
      case "session_end":
        this.observe("SessionEnd", { reason: END_REASONS[String(event.reason)] ?? "other" }, "reason");
        break;
      case "tool_confirmation_requested":
        this.observe("Notification", { message: `zot needs your permission to use ${toClaudeCall(String(event.tool_name), {}, this.cwd).toolName}`,
          notification_type: "permission_prompt" }, "notification_type");
        break;
      case "user_prompt_submit":
        this.inRun = true;
        break;
      case "turn_end":
        if (event.stop !== "tool_use") {
          this.inRun = false;
          this.commands?.runEnded();
        }
        break;
      case "pre_compact":
        this.observe("PreCompact", { trigger: this.inRun ? "auto" : "manual", custom_instructions: "" }, "trigger");
        break;
      case "post_compact":
        this.observe("PostCompact", { trigger: this.inRun ? "auto" : "manual" }, "trigger");
        break;
    }
    return true;
  }

  private get cwd(): string {
    return this.context.sink.cwd();
  }

  private noteSession(id: string): void {
    if (id === this.sessionId) return;
    this.sessionId = id;
    this.transcriptPath = claudeTranscriptPath(zotPaths().sessions, this.cwd, id);
    this.transcript = new ClaudeTranscript(this.transcriptPath, id, this.cwd);
  }

  /** Runs an observe-only event's hooks in the background, in event order (shutdown waits for them). */
  private observe(event: HookEvent, input: Record<string, unknown>, matchField: string): void {
    const hooks = this.of(event).filter((h) => matcherMatches(h.matcher, String(input[matchField] ?? "")));
    if (hooks.length === 0) return;
    // One after another, in the order of their moments (PreCompact's hooks end before PostCompact's start).
    const work = this.observed.then(() => this.run(event, hooks, input));
    this.observed = work.then(() => undefined, () => undefined);
    this.track(work);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.finally(() => this.running.delete(work)).catch(() => {});
    return work;
  }

  /** SessionStart (SubagentStart in a subagent) once per session: the context it adds to every run's system prompt. */
  private sessionStart(sessionId: string): Promise<string | undefined> {
    const known = this.starts.get(sessionId);
    if (known) return known;
    const event: HookEvent = this.subagent ? "SubagentStart" : "SessionStart";
    const input = this.subagent ? { agent_id: this.subagent, agent_type: process.env[SUBAGENT_TYPE_VAR] ?? "" }
      : { source: existsSync(this.transcriptPath) ? "resume" : "startup", model: this.context.sink.hostInfo().model };
    const matched = String(this.subagent ? input.agent_type : (input as { source: string }).source);
    const hooks = this.of(event).filter((h) => matcherMatches(h.matcher, matched));
    const started = hooks.length === 0 ? Promise.resolve(undefined)
      : this.track(this.run(event, hooks, input)).then((replies) => startContext(replies, event === "SessionStart"));
    this.starts.set(sessionId, started);
    return started;
  }

  // Interception points -----------------------------------------------------------------------

  async intercept(payload: Payload, options: { idKind: string; signal?: AbortSignal | undefined }): Promise<Reply<EventInterceptResponseFrame>> {
    if (!this.ext.alive) {
      return { ok: false, reason: "disconnected", message: "the hook runner is not running", delivered: false, written: NEVER_WRITTEN };
    }
    let answer: Answer = {};
    try {
      // Doctor's probe runs no hook: a hook's side effects (a log, a loop's state file) are not a health check's to cause.
      if (options.idKind !== "probe") answer = await this.answer(payload, options.signal);
    } catch (err) {
      this.log(`${payload.event}: ${(err as Error).message}`);
    }
    return { ok: true, frame: { type: "event_intercept_response", id: this.newRequestId("intercept"), ...answer } };
  }

  private async answer(payload: Payload, signal: AbortSignal | undefined): Promise<Answer> {
    if (typeof payload.session_id === "string") this.noteSession(payload.session_id);
    switch (payload.event) {
      case "tool_call":
        return this.preToolUse(payload, signal);
      case "tool_result":
        return this.later.attach(await this.postToolUse(payload, signal));
      case "tool_confirmation":
        return this.permissionRequest(payload, signal);
      case "user_prompt_submit": {
        const hooks = this.of("UserPromptSubmit");
        return this.later.attach(hooks.length ? userPromptAnswer(await this.run("UserPromptSubmit", hooks, { prompt: payload.text }, signal)) : {});
      }
      case "before_agent_end": {
        const event: HookEvent = this.subagent ? "SubagentStop" : "Stop";
        const input = { stop_hook_active: Number(payload.continuations) > 0, last_assistant_message: payload.text,
          ...(this.subagent ? { agent_id: this.subagent, agent_type: process.env[SUBAGENT_TYPE_VAR] ?? "", agent_transcript_path: this.transcriptPath } : {}) };
        const hooks = this.of(event).filter((h) => !this.subagent || matcherMatches(h.matcher, input.agent_type ?? ""));
        return hooks.length ? stopAnswer(await this.run(event, hooks, input, signal)) : {};
      }
      case "before_agent_start": {
        const context = await this.sessionStart(this.sessionId);
        return context ? { system_prompt: `${String(payload.system_prompt ?? "")}\n\n${context}` } : {};
      }
    }
    return {};
  }

  /** The PreToolUse hooks that select a call: matcher on the tool's Claude Code name, then the `if` rule. */
  private toolHooks(event: HookEvent, toolName: string, toolInput: Record<string, unknown>): HookCommand[] {
    return this.of(event).filter((h) => matcherMatches(h.matcher, toolName)
      && (h.if === undefined || permissionRuleMatches(h.if, toolName, toolInput, this.cwd)));
  }

  private async preToolUse(payload: Payload, signal: AbortSignal | undefined): Promise<Answer> {
    const args = (payload.tool_args ?? {}) as Record<string, unknown>;
    const call = toClaudeCall(String(payload.tool_name), args, this.cwd, ownerOf(payload));
    const hooks = this.toolHooks("PreToolUse", call.toolName, call.toolInput);
    let answer: Answer = {};
    let rewritten: Record<string, unknown> | undefined;
    if (hooks.length > 0) {
      const replies = await this.run("PreToolUse", hooks, { tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: payload.tool_id }, signal);
      const decided = preToolUseAnswer(replies, call.toolName);
      answer = decided.answer;
      if (decided.updatedInput) rewritten = fromClaudeInput(String(payload.tool_name), decided.updatedInput, args);
    }
    if (answer.block) return answer;
    const preApproved = answer.decision ? undefined : this.commands?.preApproves(call.toolName, call.toolInput, this.cwd);
    if (preApproved) answer = { ...answer, decision: "allow", reason: preApproved };
    rewritten = withEnvFile(this.envFile(), String(payload.tool_name), rewritten ?? args) ?? rewritten;
    return rewritten ? { ...answer, modified_args: rewritten } : answer;
  }

  private async postToolUse(payload: Payload, signal: AbortSignal | undefined): Promise<Answer> {
    const args = (payload.tool_args ?? {}) as Record<string, unknown>;
    const call = toClaudeCall(String(payload.tool_name), args, this.cwd, ownerOf(payload));
    const result = (payload.result ?? {}) as { content?: ToolContent[]; is_error?: boolean };
    const failed = result.is_error === true;
    const event: HookEvent = failed ? "PostToolUseFailure" : "PostToolUse";
    const hooks = this.toolHooks(event, call.toolName, call.toolInput);
    if (hooks.length === 0) return {};
    const content = result.content ?? [];
    const outcome = failed
      ? { error: content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("\n"), is_interrupt: payload.status === "cancelled" }
      : { tool_response: claudeToolResponse(String(payload.tool_name), call.toolInput, content, false) };
    const base = { tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: payload.tool_id };
    return postToolUseAnswer(await this.run(event, hooks, { ...base, ...outcome }, signal));
  }

  private async permissionRequest(payload: Payload, signal: AbortSignal | undefined): Promise<Answer> {
    const call = toClaudeCall(String(payload.tool_name), (payload.tool_args ?? {}) as Record<string, unknown>, this.cwd, ownerOf(payload));
    const hooks = this.toolHooks("PermissionRequest", call.toolName, call.toolInput);
    if (hooks.length === 0) return {};
    return permissionRequestAnswer(await this.run("PermissionRequest", hooks,
      { tool_name: call.toolName, tool_input: call.toolInput, permission_suggestions: [] }, signal));
  }

  // Running hooks -----------------------------------------------------------------------------

  /** Runs `hooks` for one moment: identical commands once, all at once; tells the user what failed or what a hook says to them. */
  private async run(event: HookEvent, hooks: HookCommand[], input: Record<string, unknown>, signal?: AbortSignal): Promise<HookReply[]> {
    const unique = [...new Map(hooks.map((h) => [h.command, h])).values()];
    const stdin = JSON.stringify({
      session_id: this.sessionId, transcript_path: this.transcriptPath, cwd: this.cwd,
      permission_mode: "default", hook_event_name: event, ...input,
    });
    const signals = [this.stopAll.signal, ...(signal ? [signal] : [])];
    const envFile = event === "SessionStart" ? this.envFile() : undefined;
    const runOne = async (hook: HookCommand): Promise<HookReply> => {
      // A hook that says `{"async": true}` first goes on by itself: what it says at the end is heard as a background hook's.
      const onDetach = (rest: Promise<HookProcessResult>) => void this.track(rest.then((run) => this.heardLater(event, readHookReply(hook, run))));
      const run = await this.spawnLine(hook.command, stdin, hook.timeoutS * 1000, envFile ? { CLAUDE_ENV_FILE: envFile } : {},
        AbortSignal.any(signals), hook.async ? undefined : onDetach);
      return readHookReply(hook, run);
    };
    for (const hook of unique.filter((h) => h.async)) this.track(runOne(hook).then((reply) => this.heardLater(event, reply)));
    const replies = await Promise.all(unique.filter((h) => !h.async).map(runOne));
    for (const reply of replies) this.tell(event, reply);
    return replies;
  }

  /** A background hook's end: the user hears of it as of any hook; what it has for the model waits for its next moment. */
  private heardLater(event: HookEvent, reply: HookReply): void {
    this.tell(event, reply);
    this.later.add(reply);
  }

  /** One shell command line of this bundle (a hook, a command's `!` line), as zot starts extensions, in the project. */
  private async spawnLine(command: string, input: string, timeoutMs: number, env: Record<string, string>, signal?: AbortSignal,
    onDetach?: (rest: Promise<HookProcessResult>) => void): Promise<HookProcessResult> {
    const run = await runHookProcess({
      name: this.ext.name, dir: this.ext.dir, command, cwd: this.cwd, input, timeoutMs,
      env: { CLAUDE_PROJECT_DIR: this.cwd, ...this.pluginEnv(), ...env },
      logPath: this.context.sink.logPath(this.ext.name), isolation: this.isolationChoice, allowEnv: this.ext.allowEnv,
      pythonCacheDir: this.context.sink.pythonCacheDir, killGraceMs: this.context.timeouts.shutdownGrace, ...(signal ? { signal } : {}),
      ...(onDetach ? { onDetach, lifetime: this.stopAll.signal } : {}),
    });
    if (run.isolation) this.isolationReport = run.isolation;
    return run;
  }

  /** A hook's failure or its `systemMessage`, shown to the user. */
  private tell(event: HookEvent, reply: HookReply): void {
    const label = `${event} hook \`${reply.hook.command}\``;
    if (reply.failure && reply.failure !== "cancelled") this.notify("warn", `${label} failed: ${reply.failure}`);
    if (reply.blocking && ["SessionStart", "SessionEnd", "Notification", "PreCompact", "PostCompact", "SubagentStart"].includes(event) && reply.stderr) {
      this.notify("warn", `${label}: ${reply.stderr}`);
    }
    const message = stringField(reply.json, "systemMessage");
    if (message) this.notify("info", message);
  }

  private notify(level: NotifyFrame["level"], message: string): void {
    this.log(message);
    this.context.sink.onRuntimeFrame(this.ext, { type: "notify", level, message });
  }

  /** CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA for a plugin's hooks (its folder, and a data folder of its own). */
  private pluginEnv(): Record<string, string> {
    if (!this.commands?.isPlugin) return {};
    const data = this.isolationChoice?.dataDir;
    return { CLAUDE_PLUGIN_ROOT: this.commands.root, ...(data ? { CLAUDE_PLUGIN_DATA: data } : {}) };
  }

  /** Where SessionStart hooks may write `export NAME=value` lines (CLAUDE_ENV_FILE). */
  private envFile(): string | undefined {
    const dir = this.isolationChoice?.dataDir;
    return dir ? join(dir, `env-${this.sessionId || "session"}.sh`) : undefined;
  }

  abort(): void {
    this.stopAll.abort();
    this.log_?.dispose();
  }

  /** Waits for the hooks still running (SessionEnd among them) within the shutdown grace, then stops them. */
  async shutdown(): Promise<void> {
    const grace = this.context.timeouts.shutdownGrace;
    if (this.running.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
    }
    this.stopAll.abort();
    await Promise.allSettled([...this.running]);
    this.log_?.dispose();
  }
}

export const createHooksDriver = (context: DriverContext): ExtensionDriver => new HooksDriver(context);
