// The protocol driver: a subprocess speaking zot's NDJSON frames over stdio. Spawn, the hello
// handshake, the registration window until `ready` (or auto-ready for legacy extensions), the
// requests the host makes (tool_call, command_invoked, event_intercept) and the graceful
// `shutdown`. Runtime frames go to the host through the sink.
import type { CommandResponseFrame, EventInterceptResponseFrame, ExtensionFrame, HelloFrame, OutgoingFrame } from "../../../protocol/index.ts";
import { PROTOCOL_VERSION } from "../../../protocol/index.ts";
import { ZOT_VERSION } from "../../../version.ts";
import { ExtensionConnection, type InvalidFrame, type Reply, type RequestOptions } from "../connection.ts";
import type { CommandReply, DriverContext, DriverToolCall, ExtensionDriver } from "../extension.ts";
import { hostCapabilities } from "../extension.ts";
import { killProcess, stopProcess } from "../process-stop.ts";
import { commandRegistrationProblem, toolRegistrationProblem } from "../registration-rules.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import { describeExit, spawnExtension, type ExtensionProcess } from "../spawn.ts";
import { errorOutcome, type ToolOutcome } from "../../../tools/types.ts";
import { callProtocolTool } from "./tool-call.ts";

export class ProtocolDriver implements ExtensionDriver {
  readonly execLabel = "exec";
  readonly toolLabel = "Extension tool";
  readonly usesSdk = true;
  private process: ExtensionProcess | undefined;
  private conn: ExtensionConnection | undefined;
  private helloTimer: ReturnType<typeof setTimeout> | undefined;
  private readyTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private invalidLines = 0;

  constructor(private readonly context: DriverContext) {}

  private get ext() {
    return this.context.ext;
  }

  get logPath(): string | undefined {
    return this.process?.logPath;
  }

  get isolation() {
    return this.process?.isolation ?? null;
  }

  start(): void {
    const isolation = this.context.sink.isolationFor?.(this.ext.candidate);
    if (!isolation) this.spawn(undefined);
    // Deciding on a sandbox may wait for the bubblewrap probe; the event loop runs meanwhile.
    else void isolation.then((i) => this.spawn(i)).catch((err: unknown) => this.ext.fail(`cannot start: ${(err as Error).message}`));
  }

  private spawn(isolation: Isolation | undefined): void {
    const { ext, sink, timeouts, limits } = this.context;
    // Shut down (zot stopping, a reload) before its sandbox was decided: it never starts.
    if (ext.stopping || ext.phase !== "starting") return;
    const manifest = ext.candidate.loaded!.manifest;
    let proc: ExtensionProcess;
    try {
      proc = spawnExtension({ name: ext.name, dir: ext.dir, exec: ext.exec, args: manifest.args ?? [],
        logPath: sink.logPath(ext.name), isolation, allowEnv: ext.allowEnv, pythonCacheDir: sink.pythonCacheDir });
    } catch (err) {
      // spawn throws synchronously only for arguments it cannot pass to the OS at all, or a sandbox this machine cannot set up.
      ext.fail(`cannot start: ${(err as Error).message}`);
      return;
    }
    this.process = proc;
    for (const warning of ext.warnings) proc.log(`warning: ${warning}`);
    this.conn = new ExtensionConnection(proc.stdin, proc.stdout,
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
    }, timeouts.hello);
    void proc.exited.then((status) => {
      if (ext.stopping || ext.phase === "failed" || ext.phase === "stopped") return;
      const held = status.stdoutHeldOpen ? "; a process it started still held its stdout open (stopped with its process group)" : "";
      ext.fail(`${describeExit(status)} ${ext.phase === "starting" ? "before sending hello" : "unexpectedly"}${held}`);
    });
    // It can never answer again: fail now instead of letting every request wait for its timeout.
    void proc.stdoutClosedEarly.then((early) => {
      if (early && !ext.stopping) ext.fail("closed its stdout but kept running; stopping it");
    });
  }

  log(message: string): void {
    this.process?.log(message);
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

  private receive(frame: ExtensionFrame): void {
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
        return ext.subscribe(frame.events ?? [], frame.intercept ?? []);
      case "ready":
        if (ext.phase === "registering") this.becomeReady("ready");
        return;
      default:
        return this.context.sink.onRuntimeFrame(ext, frame);
    }
  }

  private receiveFirst(frame: ExtensionFrame): void {
    const { ext, sink, timeouts } = this.context;
    if (frame.type !== "hello") {
      return ext.fail(`sent a ${frame.type} frame before hello (hello must be the first frame)`);
    }
    clearTimeout(this.helloTimer);
    const hello = frame as HelloFrame;
    if (hello.name !== ext.name) {
      return ext.fail(`hello name "${hello.name}" does not match the manifest name "${ext.name}"`);
    }
    ext.version = hello.version;
    ext.capabilities = new Set(hello.capabilities ?? []);
    ext.phase = "registering";
    const { provider, model } = sink.hostInfo();
    const ack = this.conn!.write({
      type: "hello_ack", protocol_version: PROTOCOL_VERSION, zot_version: ZOT_VERSION, provider, model,
      cwd: sink.cwd(), extension_dir: ext.dir, data_dir: this.process?.dataDir ?? ext.dir,
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

  private clearTimers(): void {
    clearTimeout(this.helloTimer);
    clearTimeout(this.readyTimer);
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private invalid(message: string, frame: InvalidFrame): void {
    const ext = this.ext;
    // A malformed hello is a handshake error now, not a hello timeout later.
    if (ext.phase === "starting" && frame.type === "hello") return ext.fail(`sent an invalid hello: ${message}`);
    // Every request is answered: a malformed call_tool with an id fails now instead of leaving the
    // caller waiting for its own timeout. (call_tool_cancel is one-way: logging it is enough.)
    if (frame.type === "call_tool" && frame.id && ext.alive) this.answerInvalidCall(frame.id, frame.name, frame.error);
    this.invalidLines++;
    // A flood of garbage must not flood the log: the first lines, then every 1000th.
    if (this.invalidLines <= 20 || this.invalidLines % 1000 === 0) {
      ext.log(`ignored invalid stdout line #${this.invalidLines}: ${message}`);
    }
    if (this.invalidLines === 1) ext.warnings.push(`wrote invalid stdout lines (see ${this.logPath ?? "its log"})`);
  }

  private answerInvalidCall(id: string, name: string | undefined, error: string): void {
    const why = error.startsWith("call_tool: ") ? error.slice("call_tool: ".length) : error;
    this.conn?.send({ type: "tool_result", id, ...(name !== undefined ? { name } : {}),
      content: [{ type: "text", text: `invalid call_tool: ${why}` }], is_error: true });
  }

  abort(reason: string): void {
    this.clearTimers();
    this.conn?.close(reason);
    void killProcess(this.process, this.context.timeouts.shutdownGrace);
  }

  /**
   * Drains queued frames, sends `shutdown`, waits for the exit, then SIGTERM and SIGKILL. The
   * three share one grace period (the spec's 2 s), so a consumer that stopped reading cannot
   * stretch it.
   */
  async shutdown(): Promise<void> {
    this.clearTimers();
    const proc = this.process;
    proc?.rememberDescendants();
    const grace = this.context.timeouts.shutdownGrace;
    const deadline = Date.now() + grace;
    if (this.conn && !this.conn.closed) {
      if (await this.conn.drain(Math.max(0, deadline - Date.now()))) this.conn.send({ type: "shutdown" });
      else this.context.ext.log(`its queued frames did not drain within the ${grace} ms shutdown grace (it stopped reading); no time is left for shutdown`);
    }
    if (proc) await stopProcess(proc, grace, deadline);
    this.conn?.close("the extension was shut down");
  }
}

export const createProtocolDriver = (context: DriverContext): ExtensionDriver => new ProtocolDriver(context);
