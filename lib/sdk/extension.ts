// The public face of the SDK: register commands, tools, subscriptions, interceptors and panel
// callbacks, then `run()` (one session over stdio) or `serve()` (one session per WebSocket
// connection). Outbound one-way frames (notify, panels, submit) are held until `ready` so nothing
// ever precedes `hello` or interleaves with the registrations. Calls made by a handler go to the
// session that invoked it (session.ts).
import process from "node:process";
import { format } from "node:util";

import { isLifecycleEventName, NOTIFY_LEVELS, type NotifyLevel } from "../protocol/index.ts";
import { CallToolClient } from "./call-tool.ts";
import { HostConnection, type RunOutcome } from "./connection.ts";
import { CallToolError } from "./errors.ts";
import { interceptedEvents } from "./intercept.ts";
import { readLines, type LineSource, type ReadableLike } from "./reader.ts";
import { serveSessions, type ServeHandle, type ServeOptions } from "./serve.ts";
import { currentSession, Session } from "./session.ts";
import { HandlerRegistry, type CommandHandler, type ToolHandler } from "./registry.ts";
import type {
  AgentEndInterceptor,
  AssistantMessageInterceptor,
  Awaitable,
  BeforeAgentStartInterceptor,
  CallToolOptions,
  CallToolResult,
  EventHandler,
  HostInfo,
  Interceptors,
  JsonObject,
  PanelCloseHandler,
  PanelKeyHandler,
  PanelView,
  ToolCallInterceptor,
  ToolCallXInterceptor,
  ToolConfirmationInterceptor,
  ToolDefinition,
  ToolResultInterceptor,
  TurnStartInterceptor,
  UserPromptInterceptor,
} from "./types.ts";
import { encodeOutbound, type OutboundFrame, type WritableLike } from "./writer.ts";

export interface ExtensionOptions {
  /** Must match `name` in extension.json. */
  name: string;
  version?: string;
  /** Injectable streams (default: the process's), so the SDK runs on Node, Bun and Deno alike. */
  stdin?: ReadableLike;
  stdout?: WritableLike;
  stderr?: WritableLike;
  /** Extra capabilities for `hello`, beyond those derived from what is registered before `run()`
   * (e.g. "panels" when panels are only opened from handlers registered in onHello). */
  capabilities?: string[];
  /** Exit the process once the run ends. Default: true when using the process's own streams. */
  exitProcess?: boolean;
  /** Default `callTool` timeout (the host's own limit is 60 s). */
  callToolTimeoutMs?: number;
  /**
   * A longer deadline for this extension's interception answers than the host's 5 s, up to the
   * host's maximum (intercept_v2; doctor shows it). For a guard that asks a slow service.
   */
  interceptTimeoutMs?: number;
}

type Mode = "setup" | "run" | "serve";

const NO_SESSION = "no session: while serving, call this from a handler or onHello (each connection is its own zot session)";

export class Extension {
  readonly name: string;
  readonly version: string | undefined;
  private readonly registry = new HandlerRegistry();
  private readonly stderr: WritableLike;
  private mode: Mode = "setup";
  /** Some session announced the registrations (subscriptions are fixed from then on). */
  private announcedOnce = false;
  /** The stdio session of `run()`. */
  private stdio: Session | undefined;
  /** Every session that is running (one for `run()`, one per connection for `serve()`). */
  private readonly sessions = new Set<Session>();
  /** Answers callTool before run(): no host has acknowledged hello. */
  private readonly beforeRun = new CallToolClient({ send: () => false });
  private helloHook: ((host: HostInfo) => Awaitable<void>) | undefined;
  /** One-way frames sent before run() or serve(): every session sends them at its `ready`. */
  private held: OutboundFrame[] = [];

  constructor(private readonly options: ExtensionOptions) {
    if (!options || typeof options.name !== "string" || options.name.trim() === "") {
      throw new TypeError("createExtension: name must be a non-empty string (the name in extension.json)");
    }
    this.name = options.name;
    this.version = options.version;
    if (options.interceptTimeoutMs !== undefined) {
      if (!Number.isInteger(options.interceptTimeoutMs) || options.interceptTimeoutMs < 1) {
        throw new TypeError("createExtension: interceptTimeoutMs must be a positive whole number of milliseconds");
      }
      this.registry.interceptTimeoutMs = options.interceptTimeoutMs;
    }
    this.stderr = options.stderr ?? process.stderr;
  }

  /** Host metadata from `hello_ack` (of the calling handler's session when serving); undefined
   * until it arrives. */
  get host(): HostInfo | undefined {
    return this.session()?.host;
  }

  /** Registers `/name`. `handler(args, ctx)` returns a Response (undefined means noop); a throw
   * becomes an error response. Names are matched case-insensitively by the host. */
  command(name: string, description: string, handler: CommandHandler): this {
    const entry = this.registry.addCommand(name, description, handler);
    this.toReadySessions(this.registry.commandFrame(entry));
    return this;
  }

  /** Registers an LLM-callable tool. `handler(args, ctx)` returns a ToolResult or a string; a
   * throw becomes an error result. Interactive tools must honour `ctx.signal`. */
  tool(name: string, definition: ToolDefinition, handler: ToolHandler): this {
    const entry = this.registry.addTool(name, definition, handler);
    this.toReadySessions(this.registry.toolFrame(entry));
    return this;
  }

  /** Runs after `hello_ack` and before registrations are announced; it may register more.
   * When serving, it runs for every connection, with that session's host info. */
  onHello(fn: (host: HostInfo) => Awaitable<void>): this {
    this.helloHook = fn;
    return this;
  }

  /** Observes a lifecycle event (see LIFECYCLE_EVENTS). Handlers run one at a time, in order. */
  on(event: string, handler: EventHandler): this {
    if (this.announced() && !this.registry.events.has(event)) throw this.lateSubscription(`on("${event}")`);
    if (!isLifecycleEventName(event)) {
      this.log(`subscribing to "${event}", which this SDK does not know; the host may never send it`);
    }
    this.registry.addEventHandler(event, handler);
    return this;
  }

  /** Replace the system prompt before the first model call: return the exact new prompt
   * (`""` removes it) or undefined to keep it. */
  interceptBeforeAgentStart(fn: BeforeAgentStartInterceptor): this {
    return this.intercept("beforeAgentStart", fn);
  }

  /** Guard tool calls: `{allow: false, reason}` blocks (the model sees `reason`). */
  interceptToolCall(fn: ToolCallInterceptor): this {
    return this.intercept("toolCall", fn);
  }

  /**
   * Richer tool-call guard: block, rewrite args via `modifiedArgs`, skip or insist on the user's
   * confirmation (`decision`), add `additionalContext` for the model. Wins over interceptToolCall.
   */
  interceptToolCallX(fn: ToolCallXInterceptor): this {
    return this.intercept("toolCallX", fn);
  }

  /** A call's result before the model gets it: replace it, or add context (intercept_v2). */
  interceptToolResult(fn: ToolResultInterceptor): this {
    return this.intercept("toolResult", fn);
  }

  /** A prompt before it reaches the model: block it, or add context (intercept_v2). */
  interceptUserPrompt(fn: UserPromptInterceptor): this {
    return this.intercept("userPrompt", fn);
  }

  /** The agent is about to end its run: continue it with a prompt (intercept_v2). */
  interceptAgentEnd(fn: AgentEndInterceptor): this {
    return this.intercept("agentEnd", fn);
  }

  /** The user is about to be asked to confirm a call: answer in their place (intercept_v2). */
  interceptToolConfirmation(fn: ToolConfirmationInterceptor): this {
    return this.intercept("toolConfirmation", fn);
  }

  /** Block a turn before the model is called (`reason` is shown to the user). */
  interceptTurnStart(fn: TurnStartInterceptor): this {
    return this.intercept("turnStart", fn);
  }

  /** Suppress (`block`) or rewrite (`replaceText`) the text the user sees. */
  interceptAssistantMessage(fn: AssistantMessageInterceptor): this {
    return this.intercept("assistantMessage", fn);
  }

  /** Handles the keys the user presses while panel `panelId` has focus. */
  onPanelKey(panelId: string, fn: PanelKeyHandler): this {
    this.registry.panelKeys.set(panelId, fn);
    return this;
  }

  /** Runs when the user closes panel `panelId` (Esc). */
  onPanelClose(panelId: string, fn: PanelCloseHandler): this {
    this.registry.panelCloses.set(panelId, fn);
    return this;
  }

  /** Forgets a panel's key and close callbacks (e.g. a per-call panel of an interactive tool). */
  offPanel(panelId: string): this {
    this.registry.panelKeys.delete(panelId);
    this.registry.panelCloses.delete(panelId);
    return this;
  }

  /** A note below the transcript. Throws a TypeError for an unknown level. */
  notify(level: NotifyLevel, message: string): void {
    if (!(NOTIFY_LEVELS as readonly string[]).includes(level)) {
      throw new TypeError(`notify: level must be one of ${NOTIFY_LEVELS.join(", ")} (got ${JSON.stringify(level)})`);
    }
    this.oneWay({ type: "notify", level, message });
  }

  /** Removes every note this extension pushed. */
  clearNotes(): void {
    this.oneWay({ type: "clear_notes" });
  }

  /** Submits `text` as a user prompt (queued behind a running turn; interactive hosts only). */
  submit(text: string): void {
    this.oneWay({ type: "submit", text });
  }

  /** Pushes a fresh frame for an open panel. */
  renderPanel(panelId: string, view: PanelView = {}): void {
    this.oneWay({ type: "panel_render", panel_id: panelId, ...view });
  }

  /** Closes an open panel. */
  closePanel(panelId: string): void {
    this.oneWay({ type: "panel_close", panel_id: panelId });
  }

  /**
   * Runs a host tool (built-in or another extension's) through the host's guards. Resolves with
   * the result (tool failures set `isError`); rejects with a CallToolError when the host lacks
   * `call_tool`, on bad arguments, cancellation, timeout or disconnect. Inside a tool handler use
   * `ctx.callTool`, which sets `parent_id` as the host requires.
   */
  callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult> {
    const session = this.session();
    if (session) return session.calls.call(name, args, options);
    if (this.mode === "serve") return Promise.reject(new CallToolError("unsupported", `call_tool ${name}: ${NO_SESSION}`));
    return this.beforeRun.call(name, args, options); // checks the arguments, then "no hello_ack yet"
  }

  /** Writes a line to stderr (the extension's log file); stdout carries protocol frames only. */
  log(...args: unknown[]): void {
    try {
      this.stderr.write(`[${this.name}] ${format(...args)}\n`);
    } catch {
      // stderr gone: nowhere left to say it
    }
  }

  /**
   * Sends hello (capabilities from what is registered so far, plus `tool_cancel` and
   * `call_tool`), waits for hello_ack, runs onHello, announces registrations with one
   * `subscribe`, sends `ready`, then serves the host until `shutdown` (answered with
   * `shutdown_ack`) or EOF. Resolves with how it ended, after stdout is flushed; with
   * `exitProcess` the process exits instead.
   */
  async run(): Promise<RunOutcome> {
    if (this.mode !== "setup") throw new Error(`run() may only be called once, and not after serve()`);
    this.mode = "run";
    const usesProcessStreams = !this.options.stdin && !this.options.stdout;
    const session = this.newSession(this.options.stdout ?? process.stdout);
    this.stdio = session;
    const stdin = this.options.stdin ?? process.stdin;
    const outcome = await this.runSession(session, (handlers) => readLines(stdin, handlers));
    if (this.options.exitProcess ?? usesProcessStreams) process.exit(0);
    return outcome;
  }

  /**
   * Listens for WebSocket connections (zot connects to a manifest's `url`); each connection is
   * one zot session, run like `run()` with the same handlers. Resolves once listening. The
   * process never exits because a session ended; `close()` on the handle stops serving.
   * Loads `ws` on first use (built into Bun; bundled into zot's npm package).
   */
  async serve(options: ServeOptions = {}): Promise<ServeHandle> {
    if (this.mode !== "setup") throw new Error("serve() may only be called once, and not after run()");
    this.mode = "serve";
    try {
      return await serveSessions(options, {
        log: (m) => this.log(m),
        newSession: (stream) => this.newSession(stream),
        runSession: (session, input) => this.runSession(session, input),
      });
    } catch (err) {
      this.mode = "setup"; // nothing is listening: serve() may be tried again
      throw err;
    }
  }

  private newSession(stream: WritableLike): Session {
    return new Session(stream, (m) => this.log(m), this.options.callToolTimeoutMs, [...this.held]);
  }

  /** One protocol run on `session`, every frame handled as that session. */
  private async runSession(session: Session, input: LineSource): Promise<RunOutcome> {
    this.sessions.add(session);
    const connection = new HostConnection({
      hello: {
        type: "hello",
        name: this.name,
        ...(this.version === undefined ? {} : { version: this.version }),
        capabilities: this.registry.capabilities(this.options.capabilities),
      },
      input: (handlers) => input({ ...handlers, onLine: (line) => session.enter(() => handlers.onLine(line)) }),
      writer: session.writer,
      registry: this.registry,
      calls: session.calls,
      log: (m) => this.log(m),
      onHello: this.helloHook,
      onHost: (host) => (session.host = host),
      onReady: () => {
        this.announcedOnce = true;
        session.release();
      },
    });
    try {
      return await session.enter(() => connection.start());
    } finally {
      session.end();
      this.sessions.delete(session);
      await session.writer.flush();
    }
  }

  /** The session calls go to: the calling handler's, else the stdio one of run(). */
  private session(): Session | undefined {
    return currentSession.getStore() ?? this.stdio;
  }

  private toReadySessions(frame: OutboundFrame): void {
    for (const session of this.sessions) if (session.ready) session.writer.send(frame);
  }

  private announced(): boolean {
    return this.announcedOnce || this.stdio?.phase === "done";
  }

  private intercept<K extends keyof Interceptors>(kind: K, fn: NonNullable<Interceptors[K]>): this {
    if (typeof fn !== "function") throw new TypeError(`${kind} interceptor must be a function`);
    const before = interceptedEvents(this.registry.interceptors);
    const after = interceptedEvents({ ...this.registry.interceptors, [kind]: fn });
    if (this.announced() && after.length > before.length) throw this.lateSubscription(`intercept ${kind}`);
    this.registry.interceptors[kind] = fn;
    return this;
  }

  private lateSubscription(what: string): Error {
    return new Error(`${what}: subscriptions are announced once, before ready; register before run() or in onHello`);
  }

  private oneWay(frame: OutboundFrame): void {
    const session = this.session();
    if (session) {
      session.writer.encode(frame); // refuse a bad frame now, where the caller can see why
      session.oneWay(frame);
    } else if (this.mode === "setup") {
      encodeOutbound(frame);
      this.held.push(frame);
    } else throw new Error(`${frame.type}: ${NO_SESSION}`);
  }
}

/** A new extension named as in its extension.json. */
export function createExtension(options: ExtensionOptions): Extension {
  return new Extension(options);
}
