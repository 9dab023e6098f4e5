// The public face of the SDK: register commands, tools, subscriptions, interceptors and panel
// callbacks, then `run()`. Outbound one-way frames (notify, panels, submit) are held until
// `ready` so nothing ever precedes `hello` or interleaves with the registrations.
import process from "node:process";
import { format } from "node:util";

import { isLifecycleEventName, NOTIFY_LEVELS, type NotifyLevel } from "../protocol/index.ts";
import { CallToolClient } from "./call-tool.ts";
import { HostConnection, type RunOutcome } from "./connection.ts";
import { interceptedEvents } from "./intercept.ts";
import type { ReadableLike } from "./reader.ts";
import { HandlerRegistry, type CommandHandler, type ToolHandler } from "./registry.ts";
import type {
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
  ToolDefinition,
  TurnStartInterceptor,
} from "./types.ts";
import { FrameWriter, type OutboundFrame, type WritableLike } from "./writer.ts";

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
}

type Phase = "setup" | "running" | "ready" | "done";

export class Extension {
  readonly name: string;
  readonly version: string | undefined;
  private readonly registry = new HandlerRegistry();
  private readonly writer: FrameWriter;
  private readonly calls: CallToolClient;
  private readonly stderr: WritableLike;
  private phase: Phase = "setup";
  private hostInfo: HostInfo | undefined;
  private helloHook: ((host: HostInfo) => Awaitable<void>) | undefined;
  /** One-way frames sent before `ready`. */
  private held: OutboundFrame[] = [];

  constructor(private readonly options: ExtensionOptions) {
    if (!options || typeof options.name !== "string" || options.name.trim() === "") {
      throw new TypeError("createExtension: name must be a non-empty string (the name in extension.json)");
    }
    this.name = options.name;
    this.version = options.version;
    this.stderr = options.stderr ?? process.stderr;
    this.writer = new FrameWriter(options.stdout ?? process.stdout, (m) => this.log(m));
    this.calls = new CallToolClient({
      send: (frame) => this.writer.send(frame),
      defaultTimeoutMs: options.callToolTimeoutMs,
    });
  }

  /** Host metadata from `hello_ack`; undefined until it arrives. */
  get host(): HostInfo | undefined {
    return this.hostInfo;
  }

  /** Registers `/name`. `handler(args, ctx)` returns a Response (undefined means noop); a throw
   * becomes an error response. Names are matched case-insensitively by the host. */
  command(name: string, description: string, handler: CommandHandler): this {
    const entry = this.registry.addCommand(name, description, handler);
    if (this.phase === "ready") this.writer.send(this.registry.commandFrame(entry));
    return this;
  }

  /** Registers an LLM-callable tool. `handler(args, ctx)` returns a ToolResult or a string; a
   * throw becomes an error result. Interactive tools must honour `ctx.signal`. */
  tool(name: string, definition: ToolDefinition, handler: ToolHandler): this {
    const entry = this.registry.addTool(name, definition, handler);
    if (this.phase === "ready") this.writer.send(this.registry.toolFrame(entry));
    return this;
  }

  /** Runs after `hello_ack` and before registrations are announced; it may register more. */
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

  /** Richer tool-call guard: block, or rewrite args via `modifiedArgs`. Wins over interceptToolCall. */
  interceptToolCallX(fn: ToolCallXInterceptor): this {
    return this.intercept("toolCallX", fn);
  }

  /** Block a turn before the model is called (`reason` is shown to the user). */
  interceptTurnStart(fn: TurnStartInterceptor): this {
    return this.intercept("turnStart", fn);
  }

  /** Suppress (`block`) or rewrite (`replaceText`) the text the user sees. */
  interceptAssistantMessage(fn: AssistantMessageInterceptor): this {
    return this.intercept("assistantMessage", fn);
  }

  onPanelKey(panelId: string, fn: PanelKeyHandler): this {
    this.registry.panelKeys.set(panelId, fn);
    return this;
  }

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
    return this.calls.call(name, args, options);
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
    if (this.phase !== "setup") throw new Error("run() may only be called once");
    this.phase = "running";
    const usesProcessStreams = !this.options.stdin && !this.options.stdout;
    const connection = new HostConnection({
      hello: {
        type: "hello",
        name: this.name,
        ...(this.version === undefined ? {} : { version: this.version }),
        capabilities: this.registry.capabilities(this.options.capabilities),
      },
      stdin: this.options.stdin ?? process.stdin,
      writer: this.writer,
      registry: this.registry,
      calls: this.calls,
      log: (m) => this.log(m),
      onHello: this.helloHook,
      onHost: (host) => (this.hostInfo = host),
      onReady: () => this.release(),
    });
    const outcome = await connection.start();
    this.phase = "done";
    this.held = [];
    await this.writer.flush();
    if (this.options.exitProcess ?? usesProcessStreams) process.exit(0);
    return outcome;
  }

  private announced(): boolean {
    return this.phase === "ready" || this.phase === "done";
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
    this.writer.encode(frame); // refuse a bad frame now, where the caller can see why
    if (this.phase === "ready" || this.phase === "done") this.writer.send(frame);
    else this.held.push(frame);
  }

  private release(): void {
    this.phase = "ready";
    for (const frame of this.held.splice(0)) this.writer.send(frame);
  }
}

/** A new extension named as in its extension.json. */
export function createExtension(options: ExtensionOptions): Extension {
  return new Extension(options);
}
