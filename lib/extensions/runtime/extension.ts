// One loaded protocol extension: spawn, the hello handshake, the registration window until
// `ready` (or auto-ready for legacy extensions), and its lifetime afterwards. Runtime frames are
// handed to the host through `ExtensionSink`; this file only knows about one extension.
import type { ExtensionFrame, HelloFrame, RegisterToolFrame } from "../../protocol/index.ts";
import { isInterceptableEventName, isLifecycleEventName, PROTOCOL_VERSION } from "../../protocol/index.ts";
import { ZOT_VERSION } from "../../version.ts";
import { ExtensionConnection, type InvalidFrame } from "./connection.ts";
import type { Candidate, DiscoveryScope } from "../catalog/candidate.ts";
import { failureMessage } from "./diagnostics.ts";
import { commandRegistrationProblem, droppedRegistrationMessage, toolRegistrationProblem } from "./registration-rules.ts";
import { waitGroupGone } from "../../process/group.ts";
import type { Isolation } from "./sandbox/for-candidate.ts";
import { ExtensionPermissions } from "../catalog/permissions/extension-permissions.ts";
import type { HostLimits, HostTimeouts } from "./settings.ts";
import { describeExit, spawnExtension, type ExtensionProcess } from "./spawn.ts";
import { describeServer } from "../catalog/manifest-mcp.ts";
import type { CommandResponseFrame } from "../../protocol/index.ts";
import type { ToolOutcome } from "../../tools/types.ts";

export type Phase = "starting" | "registering" | "ready" | "failed" | "stopped";
export type ReadyMode = "ready" | "auto" | "timeout" | null;

export interface ExtensionSink {
  /** The project directory now (a working-directory change moves it between reloads). */
  cwd(): string;
  readonly interactive: boolean;
  hostInfo(): { provider: string; model: string };
  logPath(name: string): string;
  /** Where Python extensions keep their bytecode (PYTHONPYCACHEPREFIX). */
  pythonCacheDir?: string;
  /** A frame outside the handshake (notify, submit, panels, call_tool, …). */
  onRuntimeFrame(ext: LoadedExtension, frame: ExtensionFrame): void;
  /** Commands, tools or subscriptions changed. */
  onRegistrationChange(ext: LoadedExtension): void;
  /** The extension failed after startup finished (crash, disconnect). */
  onRuntimeFailure(ext: LoadedExtension, message: string): void;
  /** A registration broke a rule and was dropped; the extension keeps running. */
  onRegistrationDropped(ext: LoadedExtension, message: string): void;
  /**
   * How to isolate a candidate's process (confined to its declared permissions, or in a PID
   * namespace of its own); settles once the machine's sandbox program is known (the bubblewrap probe).
   */
  isolationFor?(candidate: Candidate): Promise<Isolation>;
}

/** How the host calls an extension that is not driven by protocol frames. */
export interface ExtensionBridge {
  callTool(name: string, args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; onProgress?: (text: string) => void }): Promise<ToolOutcome>;
  invokeCommand(name: string, args: string): Promise<CommandResponseFrame | { error: string }>;
}

/** Capabilities this host advertises in `hello_ack`. */
export function hostCapabilities(interactive: boolean): string[] {
  const caps = ["commands", "tools", "deferred_tools", "events", "intercept", "panels", "call_tool", "tool_cancel"];
  return interactive ? [...caps, "interactive_tools"] : caps;
}

export class LoadedExtension {
  readonly name: string;
  readonly dir: string;
  readonly scope: DiscoveryScope;
  readonly exec: string;
  /** The file that declared it when not a folder's manifest (a project's .mcp.json). */
  readonly source: string | undefined;
  /** What diagnostics call `exec`: an MCP server's command or URL. */
  execLabel = "exec";
  readonly language: string | undefined;
  phase: Phase = "starting";
  readyMode: ReadyMode = null;
  startupMs = 0;
  version: string | undefined;
  capabilities = new Set<string>();
  readonly commands: Array<{ name: string; description: string }> = [];
  readonly tools: RegisterToolFrame[] = [];
  readonly events = new Set<string>();
  readonly intercepts = new Set<string>();
  /** Rewrites its interception made this session, by event (for doctor and /ext). */
  readonly rewrites = new Map<string, number>();
  readonly errors: string[] = [];
  readonly warnings: string[];
  /** Its grant and guard policies (manifest `permissions` / `on_failure`, user config). */
  readonly permissions: ExtensionPermissions;
  /** Settles when startup is over: ready, auto-ready or failed. */
  readonly settled: Promise<void>;
  /**
   * What the host's start waits for: `settled`, except for a server allowed to take longer than
   * the hello window (an MCP server's startup_timeout_ms), which goes on starting meanwhile.
   */
  startupWait: Promise<void>;
  /** Still starting after the host's start went on: a failure then is reported as it happens. */
  protected startingInBackground = false;
  process: ExtensionProcess | undefined;
  conn: ExtensionConnection | undefined;
  /** config.json's `extensions.<name>.env`: variables it gets although they look like credentials. */
  allowEnv: string[] = [];

  /**
   * Set by extension kinds that are not driven by protocol frames (MCP servers): the tool proxy
   * and the host call it instead of sending `tool_call` and `command_invoked` over `conn`.
   */
  bridge: ExtensionBridge | undefined;

  protected settle!: () => void;
  protected startedAt = Date.now();
  protected helloTimer: ReturnType<typeof setTimeout> | undefined;
  private readyTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  protected stopping = false;
  private invalidLines = 0;

  constructor(
    readonly candidate: Candidate,
    protected readonly sink: ExtensionSink,
    protected readonly timeouts: HostTimeouts,
    private readonly limits: HostLimits,
  ) {
    const manifest = candidate.loaded!.manifest;
    this.name = manifest.name;
    this.dir = candidate.dir;
    this.scope = candidate.scope;
    this.exec = manifest.exec ?? (manifest.mcp ? describeServer(manifest.mcp) : "");
    this.language = manifest.language;
    this.source = candidate.source;
    this.warnings = [...candidate.warnings];
    this.permissions = new ExtensionPermissions(manifest, (line) => this.log(line));
    this.settled = new Promise((r) => (this.settle = r));
    this.startupWait = this.settled;
  }

  get alive(): boolean {
    return this.phase === "registering" || this.phase === "ready";
  }

  get logPath(): string | undefined {
    return this.process ? this.process.logPath : undefined;
  }

  /** Spawns the process and runs the handshake; `settled` resolves when it is over. */
  start(): this {
    this.startedAt = Date.now();
    const isolation = this.sink.isolationFor?.(this.candidate);
    if (!isolation) this.spawn(undefined);
    // Deciding on a sandbox may wait for the bubblewrap probe; the event loop runs meanwhile.
    else void isolation.then((i) => this.spawn(i)).catch((err: unknown) => this.fail(`cannot start: ${(err as Error).message}`));
    return this;
  }

  private spawn(isolation: Isolation | undefined): void {
    // Shut down (zot stopping, a reload) before its sandbox was decided: it never starts.
    if (this.stopping || this.phase !== "starting") return;
    const manifest = this.candidate.loaded!.manifest;
    let proc: ExtensionProcess;
    try {
      proc = spawnExtension({ name: this.name, dir: this.dir, exec: this.exec, args: manifest.args ?? [],
        logPath: this.sink.logPath(this.name), isolation, allowEnv: this.allowEnv, pythonCacheDir: this.sink.pythonCacheDir });
    } catch (err) {
      // spawn throws synchronously only for arguments it cannot pass to the OS at all, or a sandbox this machine cannot set up.
      this.fail(`cannot start: ${(err as Error).message}`);
      return;
    }
    this.process = proc;
    for (const warning of this.warnings) proc.log(`warning: ${warning}`);
    this.conn = new ExtensionConnection(proc.stdin, proc.stdout,
      { ...this.limits, writeTimeoutMs: this.timeouts.write },
      {
        onFrame: (frame) => this.receive(frame),
        onInvalid: (message, frame) => this.invalid(message, frame),
        onUnsendable: (message) => this.warn(message),
        onFatal: (reason) => this.fail(`disconnected: ${reason}`),
      }, this.name);
    this.helloTimer = setTimeout(() => {
      this.readyMode = "timeout";
      this.fail(`did not send hello within ${this.timeouts.hello} ms`);
    }, this.timeouts.hello);
    void proc.exited.then((status) => {
      if (this.stopping || this.phase === "failed" || this.phase === "stopped") return;
      const how = describeExit(status);
      const held = status.stdoutHeldOpen ? "; a process it started still held its stdout open (stopped with its process group)" : "";
      this.fail(`${how} ${this.phase === "starting" ? "before sending hello" : "unexpectedly"}${held}`);
    });
    // It can never answer again: fail now instead of letting every request wait for its timeout.
    void proc.stdoutClosedEarly.then((early) => {
      if (early && !this.stopping) this.fail("closed its stdout but kept running; stopping it");
    });
  }

  /** Appends a diagnostic line to this extension's log. */
  log(message: string): void {
    this.process?.log(message);
  }

  /** Counts and logs a rewrite its interception of `event` made. */
  noteRewrite(event: string, what: string): void {
    this.rewrites.set(event, (this.rewrites.get(event) ?? 0) + 1);
    this.log(`${event} interception rewrote ${what}`);
  }

  warn(message: string): void {
    // Bounded: a long session of repeated timeouts must not grow the report without end.
    if (this.warnings.length < 50) this.warnings.push(message);
    this.log(`warning: ${message}`);
  }

  private receive(frame: ExtensionFrame): void {
    if (this.phase === "starting") return this.receiveFirst(frame);
    if (this.phase !== "registering" && this.phase !== "ready") return;
    if (this.idleTimer !== undefined) this.armIdle();
    switch (frame.type) {
      case "hello":
        return this.warn("sent a second hello; ignored");
      case "register_command": {
        if (this.phase === "ready") this.log(`register_command "${frame.name}" arrived after ready`);
        const problem = commandRegistrationProblem(frame);
        if (problem) return this.dropRegistration("command", frame.name, problem);
        this.commands.push({ name: frame.name, description: frame.description ?? "" });
        return this.sink.onRegistrationChange(this);
      }
      case "register_tool": {
        if (this.phase === "ready") this.log(`register_tool "${frame.name}" arrived after ready`);
        // An interactive tool without "panels" could never show its panel: its calls would hang.
        const problem = toolRegistrationProblem(frame) ?? (frame.interactive && !this.permissions.allowsUi("panels")
          ? 'an interactive tool needs "panels" in permissions.ui' : undefined);
        if (problem) return this.dropRegistration("tool", frame.name, problem);
        this.tools.push(frame);
        return this.sink.onRegistrationChange(this);
      }
      case "subscribe":
        return this.subscribe(frame.events ?? [], frame.intercept ?? []);
      case "ready":
        if (this.phase === "registering") this.becomeReady("ready");
        return;
      default:
        return this.sink.onRuntimeFrame(this, frame);
    }
  }

  /** A registration no provider (or no user) could use: reported as an error, the rest stays. */
  protected dropRegistration(kind: "tool" | "command", name: string, rule: string): void {
    const message = droppedRegistrationMessage(this.name, kind, name, rule);
    if (this.errors.length < 50) this.errors.push(message);
    this.log(`error: ${message}`);
    this.sink.onRegistrationDropped(this, message);
  }

  private receiveFirst(frame: ExtensionFrame): void {
    if (frame.type !== "hello") {
      return this.fail(`sent a ${frame.type} frame before hello (hello must be the first frame)`);
    }
    clearTimeout(this.helloTimer);
    const hello = frame as HelloFrame;
    if (hello.name !== this.name) {
      return this.fail(`hello name "${hello.name}" does not match the manifest name "${this.name}"`);
    }
    this.version = hello.version;
    this.capabilities = new Set(hello.capabilities ?? []);
    this.phase = "registering";
    const { provider, model } = this.sink.hostInfo();
    const ack = this.conn!.write({
      type: "hello_ack", protocol_version: PROTOCOL_VERSION, zot_version: ZOT_VERSION, provider, model,
      cwd: this.sink.cwd(), extension_dir: this.dir, data_dir: this.process?.dataDir ?? this.dir,
      capabilities: hostCapabilities(this.sink.interactive),
    });
    // Legacy extensions never send ready: they are readied once they have been silent for the
    // idle window after hello_ack, or when the registration window closes, whichever is first.
    const armReady = () => {
      if (this.phase !== "registering") return;
      this.readyTimer = setTimeout(() => this.autoReady(`no ready frame within ${this.timeouts.ready} ms after hello_ack`), this.timeouts.ready);
      this.armIdle();
    };
    if (ack) void ack.written.then(armReady);
  }

  /** (Re)starts the idle window; any frame while registering restarts it. */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.autoReady(`no ready frame and ${this.timeouts.readyIdle} ms of silence after hello_ack`),
      Math.min(this.timeouts.readyIdle, this.timeouts.ready));
  }

  private autoReady(why: string): void {
    if (this.phase !== "registering") return;
    this.log(`${why}; treating it as ready (legacy extension)`);
    this.becomeReady("auto");
  }

  private subscribe(events: string[], intercepts: string[]): void {
    // Names outside the grant are never delivered nor consulted (the doctor lists them as refused).
    for (const name of events) {
      if (!isLifecycleEventName(name)) this.log(`subscribe: unknown event "${name}" ignored`);
      else if (!this.permissions.allowsEvent(name)) {
        this.permissions.refuse("events", name, `subscribe: event "${name}" is not in permissions.events; it is not delivered`);
      } else this.events.add(name);
    }
    for (const name of intercepts) {
      if (!isInterceptableEventName(name)) this.log(`subscribe: "${name}" cannot be intercepted; ignored (observe it with events instead)`);
      else if (!this.permissions.allowsIntercept(name)) {
        this.permissions.refuse("intercept", name, `subscribe: intercept "${name}" is not in permissions.intercept; it is not consulted`);
      } else this.intercepts.add(name);
    }
    this.sink.onRegistrationChange(this);
  }

  protected becomeReady(mode: "ready" | "auto"): void {
    clearTimeout(this.readyTimer);
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.phase = "ready";
    this.readyMode = mode;
    this.startupMs = Date.now() - this.startedAt;
    this.settle();
  }

  private invalid(message: string, frame: InvalidFrame): void {
    // A malformed hello is a handshake error now, not a hello timeout later.
    if (this.phase === "starting" && frame.type === "hello") return this.fail(`sent an invalid hello: ${message}`);
    // Every request is answered: a malformed call_tool with an id fails now instead of leaving the
    // caller waiting for its own timeout. (call_tool_cancel is one-way: logging it is enough.)
    if (frame.type === "call_tool" && frame.id && this.alive) this.answerInvalidCall(frame.id, frame.name, frame.error);
    this.invalidLines++;
    // A flood of garbage must not flood the log: the first lines, then every 1000th.
    if (this.invalidLines <= 20 || this.invalidLines % 1000 === 0) {
      this.log(`ignored invalid stdout line #${this.invalidLines}: ${message}`);
    }
    if (this.invalidLines === 1) this.warnings.push(`wrote invalid stdout lines (see ${this.logPath ?? "its log"})`);
  }

  private answerInvalidCall(id: string, name: string | undefined, error: string): void {
    const why = error.startsWith("call_tool: ") ? error.slice("call_tool: ".length) : error;
    this.conn?.send({ type: "tool_result", id, ...(name !== undefined ? { name } : {}),
      content: [{ type: "text", text: `invalid call_tool: ${why}` }], is_error: true });
  }

  /** Marks the extension failed, records the diagnostic, and stops its process group. */
  fail(reason: string): void {
    if (this.phase === "failed" || this.phase === "stopped") return;
    const duringStartup = this.phase === "starting" || this.phase === "registering";
    this.phase = "failed";
    clearTimeout(this.helloTimer);
    clearTimeout(this.readyTimer);
    clearTimeout(this.idleTimer);
    this.startupMs = Date.now() - this.startedAt;
    const message = failureMessage(this, reason, duringStartup);
    this.errors.push(message);
    this.log(`error: ${reason}`);
    this.conn?.close(reason);
    void this.kill();
    this.settle();
    if (!duringStartup || this.startingInBackground) this.sink.onRuntimeFailure(this, message);
  }

  protected async kill(): Promise<void> {
    const pid = this.process?.pid;
    if (pid === undefined) return;
    this.process!.rememberDescendants();
    await this.terminate(this.process!);
    await this.process!.exited;
    this.process!.stopEscapees();
    await this.process!.treeGone();
    this.process!.dispose();
  }

  /** SIGTERM, then SIGKILL, to everything it runs, saying in the log when SIGKILL was needed. */
  private async terminate(proc: ExtensionProcess): Promise<void> {
    const grace = this.timeouts.shutdownGrace;
    const gone = await proc.terminate(grace, () => this.log(`did not exit within ${grace} ms of SIGTERM; sending SIGKILL to its process group`));
    if (!gone) this.log("its process group was still there after SIGKILL");
  }

  /**
   * Graceful stop: drain queued frames, send `shutdown`, wait for exit, then SIGTERM and SIGKILL
   * the whole group. Draining, `shutdown` and the wait for the exit share one grace period (the
   * spec's 2 s), so a consumer that stopped reading cannot stretch it. Also reaps anything the
   * extension forked that outlived it.
   */
  async shutdown(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.helloTimer);
    clearTimeout(this.readyTimer);
    clearTimeout(this.idleTimer);
    this.settle();
    const proc = this.process;
    proc?.rememberDescendants();
    const grace = this.timeouts.shutdownGrace;
    const deadline = Date.now() + grace;
    const left = () => Math.max(0, deadline - Date.now());
    if (this.conn && !this.conn.closed) {
      await this.conn.drain(left());
      this.conn.send({ type: "shutdown" });
    }
    if (proc) {
      const exitedInTime = await Promise.race([proc.exited.then(() => true), delay(left()).then(() => false)]);
      if (!exitedInTime) this.log(`did not exit within ${grace} ms of shutdown; sending SIGTERM`);
      if (proc.pid !== undefined) {
        // The leader may be gone while children it forked still hold the group.
        if (!(await waitGroupGone(proc.pid, exitedInTime ? 50 : 0))) {
          if (exitedInTime) this.log("exited, but processes it started were still running; stopping them");
          await this.terminate(proc);
        }
      }
      await proc.exited;
      proc.stopEscapees();
      await proc.treeGone();
      proc.dispose();
    }
    this.conn?.close("the extension was shut down");
    if (this.phase !== "failed") this.phase = "stopped";
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
