// zot's protocol over any ordered byte transport: the hello handshake, the registration window
// until `ready` (or auto-ready for legacy extensions), the requests the host makes (tool_call,
// command_invoked, event_intercept) and the runtime frames it passes on. The stdio driver (a
// subprocess) and the WebSocket driver (a URL) differ only in how they reach the extension, how
// they notice it is gone, and how they stop it.
import type { Readable, Writable } from "node:stream";
import type { CommandResponseFrame, EventInterceptResponseFrame, ExtensionFrame, HelloFrame, OutgoingFrame } from "../../../protocol/index.ts";
import { PROTOCOL_VERSION } from "../../../protocol/index.ts";
import { ZOT_VERSION } from "../../../version.ts";
import { judgeEarlyLine } from "../first-frame.ts";
import { ExtensionConnection, type InvalidFrame, type Reply, type RequestOptions } from "../connection.ts";
import type { CommandReply, DriverContext, DriverToolCall, ExtensionDriver } from "../extension.ts";
import { hostCapabilities } from "../extension.ts";
import type { IsolationReport } from "../launch-line.ts";
import { commandRegistrationProblem, toolRegistrationProblem } from "../registration-rules.ts";
import { errorOutcome, type ToolOutcome } from "../../../tools/types.ts";
import { callProtocolTool } from "./tool-call.ts";

export abstract class FramedDriver implements ExtensionDriver {
  abstract readonly execLabel: string;
  readonly toolLabel = "Extension tool";
  abstract readonly usesSdk: boolean;
  abstract readonly logPath: string | undefined;
  abstract readonly isolation: IsolationReport | null;
  protected conn: ExtensionConnection | undefined;
  private helloTimer: ReturnType<typeof setTimeout> | undefined;
  private readyTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private invalidLines = 0;

  constructor(protected readonly context: DriverContext) {}

  protected get ext() {
    return this.context.ext;
  }

  abstract start(): void;
  abstract log(message: string): void;
  abstract abort(reason: string): void;
  abstract shutdown(): Promise<void>;
  /** hello_ack's data_dir. */
  protected abstract dataDir(): string;
  /** What the log calls a line that is not a frame ("stdout line", "message"). */
  protected abstract readonly lineLabel: string;

  /** Starts the protocol over `output`/`input` (the extension's stdin and stdout); hello is due within `helloMs`. */
  protected open(output: Writable, input: Readable, helloMs = this.context.timeouts.hello): void {
    const { ext, timeouts, limits } = this.context;
    this.conn = new ExtensionConnection(output, input,
      { ...limits, writeTimeoutMs: timeouts.write },
      {
        onFrame: (frame) => this.receive(frame),
        onInvalid: (message, frame) => this.invalid(message, frame),
        onUnsendable: (message) => ext.warn(message),
        onFatal: (reason) => ext.fail(`disconnected: ${reason}`),
      }, ext.name);
    this.helloTimer = setTimeout(() => {
      ext.readyMode = "timeout";
      ext.fail(`did not send hello within ${timeouts.hello} ms`);
    }, helloMs);
  }

  newRequestId(kind: string): string {
    return this.conn?.newId(kind) ?? `${kind}-unsent`;
  }

  async callTool(call: DriverToolCall): Promise<ToolOutcome> {
    if (!this.conn) return errorOutcome(`tool ${call.name} (extension "${this.ext.name}") is unavailable: the extension is not running`);
    return callProtocolTool(this.ext, this.conn, call);
  }

  async invokeCommand(name: string, args: string, options: { signal: AbortSignal; deadlineMs: number }): Promise<CommandReply> {
    const { ext, conn } = this;
    if (!conn) return { error: `/${name} is unavailable: extension "${ext.name}" is not running` };
    const reply = await conn.request<CommandResponseFrame>(
      { type: "command_invoked", id: conn.newId("cmd"), name, args: args.trim() },
      "command_response", { timeoutMs: null, signal: options.signal });
    if (reply.ok) return reply.frame;
    const why = reply.reason === "cancelled" ? `did not answer within ${options.deadlineMs} ms` : reply.message;
    ext.log(`command /${name}: ${why}`);
    return { error: `/${name} (extension "${ext.name}"): ${why}` };
  }

  deliver(frame: OutgoingFrame): boolean {
    return this.conn?.send(frame) ?? false;
  }

  intercept(payload: Record<string, unknown> & { event: string }, options: RequestOptions & { idKind: string }):
    Promise<Reply<EventInterceptResponseFrame>> {
    const conn = this.conn!;
    const { idKind, ...request } = options;
    return conn.request<EventInterceptResponseFrame>({ type: "event_intercept", id: conn.newId(idKind), ...payload },
      "event_intercept_response", request);
  }

  protected receive(frame: ExtensionFrame): void {
    const ext = this.ext;
    if (ext.phase === "starting") return this.receiveFirst(frame);
    if (!ext.alive) return;
    if (this.idleTimer !== undefined) this.armIdle();
    switch (frame.type) {
      case "hello":
        return ext.warn("sent a second hello; ignored");
      case "register_command": {
        if (ext.phase === "ready") ext.log(`register_command "${frame.name}" arrived after ready`);
        const problem = commandRegistrationProblem(frame);
        if (problem) return ext.dropRegistration("command", frame.name, problem);
        ext.commands.push({ name: frame.name, description: frame.description ?? "" });
        return ext.registrationChanged();
      }
      case "register_tool": {
        if (ext.phase === "ready") ext.log(`register_tool "${frame.name}" arrived after ready`);
        // An interactive tool without "panels" could never show its panel: its calls would hang.
        const problem = toolRegistrationProblem(frame) ?? (frame.interactive && !ext.permissions.allowsUi("panels")
          ? 'an interactive tool needs "panels" in permissions.ui' : undefined);
        if (problem) return ext.dropRegistration("tool", frame.name, problem);
        ext.tools.push(frame);
        return ext.registrationChanged();
      }
      case "subscribe":
        return ext.subscribe(frame.events ?? [], frame.intercept ?? [], frame.intercept_timeout_ms);
      case "ready":
        if (ext.phase === "registering") this.becomeReady("ready");
        return;
      default:
        return this.context.sink.onRuntimeFrame(ext, frame);
    }
  }

  private receiveFirst(frame: ExtensionFrame): void {
    const { ext, sink, timeouts } = this.context;
    const early = judgeEarlyLine({ frame }, ext.name);
    if (early.verdict !== "hello") return ext.fail(early.why);
    clearTimeout(this.helloTimer);
    const hello = frame as HelloFrame;
    ext.version = hello.version;
    ext.capabilities = new Set(hello.capabilities ?? []);
    ext.phase = "registering";
    const { provider, model } = sink.hostInfo();
    const ack = this.conn!.write({
      type: "hello_ack", protocol_version: PROTOCOL_VERSION, zot_version: ZOT_VERSION, provider, model,
      cwd: sink.cwd(), extension_dir: ext.dir, data_dir: this.dataDir(),
      capabilities: hostCapabilities(sink.interactive),
    });
    // Legacy extensions never send ready: they are readied once they have been silent for the
    // idle window after hello_ack, or when the registration window closes, whichever is first.
    const armReady = () => {
      if (ext.phase !== "registering") return;
      this.readyTimer = setTimeout(() => this.autoReady(`no ready frame within ${timeouts.ready} ms after hello_ack`), timeouts.ready);
      this.armIdle();
    };
    if (ack) void ack.written.then(armReady);
  }

  /** (Re)starts the idle window; any frame while registering restarts it. */
  private armIdle(): void {
    const { timeouts } = this.context;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.autoReady(`no ready frame and ${timeouts.readyIdle} ms of silence after hello_ack`),
      Math.min(timeouts.readyIdle, timeouts.ready));
  }

  private autoReady(why: string): void {
    if (this.ext.phase !== "registering") return;
    this.ext.log(`${why}; treating it as ready (legacy extension)`);
    this.becomeReady("auto");
  }

  private becomeReady(mode: "ready" | "auto"): void {
    this.clearTimers();
    this.ext.becomeReady(mode);
  }

  protected clearTimers(): void {
    clearTimeout(this.helloTimer);
    clearTimeout(this.readyTimer);
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private invalid(message: string, frame: InvalidFrame): void {
    const ext = this.ext;
    // A malformed hello is a handshake error now, not a hello timeout later.
    if (ext.phase === "starting") {
      const early = judgeEarlyLine({ invalid: { error: message, type: frame.type } }, ext.name);
      if (early.verdict === "refused") return ext.fail(early.why);
    }
    // Every request is answered: a malformed call_tool with an id fails now instead of leaving the
    // caller waiting for its own timeout. (call_tool_cancel is one-way: logging it is enough.)
    if (frame.type === "call_tool" && frame.id && ext.alive) this.answerInvalidCall(frame.id, frame.name, frame.error);
    this.invalidLines++;
    // A flood of garbage must not flood the log: the first lines, then every 1000th.
    if (this.invalidLines <= 20 || this.invalidLines % 1000 === 0) {
      ext.log(`ignored invalid ${this.lineLabel} #${this.invalidLines}: ${message}`);
    }
    if (this.invalidLines === 1) ext.warnings.push(`wrote invalid ${this.lineLabel}s (see ${this.logPath ?? "its log"})`);
  }

  private answerInvalidCall(id: string, name: string | undefined, error: string): void {
    const why = error.startsWith("call_tool: ") ? error.slice("call_tool: ".length) : error;
    this.conn?.send({ type: "tool_result", id, ...(name !== undefined ? { name } : {}),
      content: [{ type: "text", text: `invalid call_tool: ${why}` }], is_error: true });
  }

}
