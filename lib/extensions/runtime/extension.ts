// One loaded extension, whatever its kind: the record the host reads (phase, registrations,
// subscriptions, permissions, diagnostics), the lifetime rules every kind shares (ready,
// failure, shutdown), and the driver contract. How the extension is reached is its driver's
// business: the protocol driver speaks zot's NDJSON frames over a subprocess's stdio, the MCP
// driver speaks MCP through the SDK, and the host calls only `ExtensionDriver`, so a new kind
// of extension is one more driver. Runtime frames reach the host through `ExtensionSink`.
import type { ExtensionFrame, RegisterToolFrame } from "../../protocol/extension-frames.ts";
import { INTERCEPT_V2, isInterceptableEventName, isLifecycleEventName, needsInterceptV2 } from "../../events/names.ts";
import type { Candidate, DiscoveryScope } from "../catalog/candidate.ts";
import { failureMessage } from "./diagnostics.ts";
import { droppedRegistrationMessage } from "./registration-rules.ts";
import type { Isolation } from "./sandbox/for-candidate.ts";
import { ExtensionPermissions } from "../catalog/permissions/extension-permissions.ts";
import type { HostLimits, HostTimeouts } from "./settings.ts";
import { describeServer } from "../catalog/manifest-mcp.ts";
import { remoteWarnings } from "../catalog/manifest-url.ts";
import type { CommandResponseFrame, EventInterceptResponseFrame } from "../../protocol/extension-frames.ts";
import type { OutgoingFrame } from "../../protocol/transport.ts";
import type { BundleKind } from "../catalog/manifest.ts";
import type { ToolOutcome } from "../../tools/types.ts";
import type { Reply, RequestOptions } from "./connection.ts";
import type { IsolationReport } from "./launch-line.ts";

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

/** Capabilities this host advertises in `hello_ack`. */
export function hostCapabilities(interactive: boolean): string[] {
  const caps = ["commands", "tools", "deferred_tools", "events", "intercept", INTERCEPT_V2, "panels", "call_tool", "tool_cancel"];
  return interactive ? [...caps, "interactive_tools"] : caps;
}

/** One host call of one of the extension's tools. */
export interface DriverToolCall {
  /** The correlation id (from newRequestId): nested call_tool frames name it as their parent. */
  id: string;
  name: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  timeoutMs: number;
  /** An interactive tool waits for the user: no deadline. */
  interactive: boolean;
  onProgress?: (text: string) => void;
}

/** What the doctor shows of an MCP server once it answered. */
export interface McpServerDescription {
  transport: "stdio" | "http";
  server: string | null;
  version: string | null;
  tools: string[];
  /** zot tool name → the server's tool name. */
  toolNames: ReadonlyMap<string, string>;
  prompts: string[];
  resources: string[];
}

/** What the doctor shows of a WebSocket extension's connection. */
export interface RemoteDescription {
  url: string;
  /** Upgrade request → open, and open → `ready`; null until they happened. */
  connectMs: number | null;
  handshakeMs: number | null;
}

export type CommandReply = CommandResponseFrame | { error: string };

export interface ExtensionDriver {
  /** What diagnostics call the configured executable: "exec", an MCP server's "command" or "url". */
  readonly execLabel: string;
  /** What a capped tool result calls its tool ("Extension tool", "MCP tool"). */
  readonly toolLabel: string;
  /** Whether it may be written against zot's SDKs (which are then put in place before it starts). */
  readonly usesSdk: boolean;
  readonly logPath: string | undefined;
  /** How its process was isolated; null when it has no process or none was asked. */
  readonly isolation: IsolationReport | null;
  /** A failure lost a connection that trying again may regain (a WebSocket extension's). */
  readonly reconnectable?: boolean;
  /** Starts it; the record's `settled` resolves when start-up is over. */
  start(): void;
  /** Appends a diagnostic line to its log. */
  log(message: string): void;
  /** A fresh id for a request of `kind`, unique for this extension. */
  newRequestId(kind: string): string;
  callTool(call: DriverToolCall): Promise<ToolOutcome>;
  /** `deadlineMs` only words the failure: the host's `signal` enforces it. */
  invokeCommand(name: string, args: string, options: { signal: AbortSignal; deadlineMs: number }): Promise<CommandReply>;
  /** Queues a one-way frame (an event, a panel key, a call_tool's result); false when not delivered. */
  deliver(frame: OutgoingFrame): boolean;
  /** Asks its interceptor about one event (the payload carries `event`). */
  intercept(payload: Record<string, unknown> & { event: string }, options: RequestOptions & { idKind: string }):
    Promise<Reply<EventInterceptResponseFrame>>;
  /** The record failed: stop at once (close the connection, kill the process). */
  abort(reason: string): void;
  /** Graceful stop within the shutdown grace, then SIGTERM and SIGKILL. */
  shutdown(): Promise<void>;
  describe?(): { mcp: McpServerDescription } | { remote: RemoteDescription };
}

/** What a driver is built with. */
export interface DriverContext {
  ext: LoadedExtension;
  sink: ExtensionSink;
  timeouts: HostTimeouts;
  limits: HostLimits;
}

export type DriverFactory = (context: DriverContext) => ExtensionDriver;

/** The bundle kinds that run as an extension, each through a driver. */
export type DriverKind = Extract<BundleKind, "protocol" | "websocket" | "mcp" | "hooks" | "plugin" | "commands">;

/**
 * A loader of the driver factory per runnable bundle kind; the application injects them into
 * the host, which loads a kind's driver when an extension of that kind first starts.
 */
export type DriverFactories = Record<DriverKind, () => Promise<DriverFactory>>;

export class LoadedExtension {
  readonly name: string;
  readonly dir: string;
  readonly scope: DiscoveryScope;
  readonly exec: string;
  /** The file that declared it when not a folder's manifest (a project's .mcp.json). */
  readonly source: string | undefined;
  readonly language: string | undefined;
  readonly driver: ExtensionDriver;
  phase: Phase = "starting";
  readyMode: ReadyMode = null;
  startupMs = 0;
  version: string | undefined;
  capabilities = new Set<string>();
  /** `alias`: a second name (a plugin command's plain one) used only while nothing else has it. */
  readonly commands: Array<{ name: string; description: string; alias?: true }> = [];
  readonly tools: RegisterToolFrame[] = [];
  readonly events = new Set<string>();
  readonly intercepts = new Set<string>();
  /** Rewrites its interception made this session, by event (for doctor and /ext). */
  readonly rewrites = new Map<string, number>();
  /** The interception reply deadline its subscription asked for (capped by the host); absent: the host's. */
  interceptTimeoutMs: number | undefined;
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
  startingInBackground = false;
  /** config.json's `extensions.<name>.env`: variables it gets although they look like credentials. */
  allowEnv: string[] = [];
  private settle!: () => void;
  private startedAt = Date.now();
  private readonly interceptMaxMs: number;
  private shuttingDown = false;

  constructor(
    readonly candidate: Candidate,
    private readonly sink: ExtensionSink,
    timeouts: HostTimeouts,
    limits: HostLimits,
    driverFor: DriverFactory,
  ) {
    // First: the permissions below may already log, and logging is the driver's.
    this.driver = driverFor({ ext: this, sink, timeouts, limits });
    this.interceptMaxMs = timeouts.interceptMax;
    const manifest = candidate.loaded!.manifest;
    this.name = manifest.name;
    this.dir = candidate.dir;
    this.scope = candidate.scope;
    this.exec = manifest.exec ?? manifest.url ?? (manifest.mcp ? describeServer(manifest.mcp) : "");
    this.language = manifest.language;
    this.source = candidate.source;
    this.warnings = [...candidate.warnings, ...(manifest.url ? remoteWarnings(manifest) : [])];
    this.permissions = new ExtensionPermissions(manifest, (line) => this.log(line));
    this.settled = new Promise((r) => (this.settle = r));
    this.startupWait = this.settled;
  }

  get alive(): boolean {
    return this.phase === "registering" || this.phase === "ready";
  }

  /** zot is stopping it (a shutdown or a reload): what happens to it now is not its failure. */
  get stopping(): boolean {
    return this.shuttingDown;
  }

  get logPath(): string | undefined {
    return this.driver.logPath;
  }

  /** What diagnostics call `exec`: an MCP server's command or URL. */
  get execLabel(): string {
    return this.driver.execLabel;
  }

  /** Starts it through its driver; `settled` resolves when start-up is over. */
  start(): this {
    this.startedAt = Date.now();
    this.driver.start();
    return this;
  }

  /** Appends a diagnostic line to this extension's log. */
  log(message: string): void {
    this.driver.log(message);
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

  /** Commands, tools or subscriptions changed: the host rebuilds its registry. */
  registrationChanged(): void {
    this.sink.onRegistrationChange(this);
  }

  /** A registration no provider (or no user) could use: reported as an error, the rest stays. */
  dropRegistration(kind: "tool" | "command", name: string, rule: string): void {
    const message = droppedRegistrationMessage(this.name, kind, name, rule);
    if (this.errors.length < 50) this.errors.push(message);
    this.log(`error: ${message}`);
    this.sink.onRegistrationDropped(this, message);
  }

  /** It said `intercept_v2` in its hello: the interception additions apply to it. */
  get interceptV2(): boolean {
    return this.capabilities.has(INTERCEPT_V2);
  }

  /**
   * Its `subscribe`: names outside the grant are never delivered nor consulted (the doctor lists
   * them as refused). The additions (new points, a longer deadline) need `intercept_v2`.
   */
  subscribe(events: string[], intercepts: string[], interceptTimeoutMs?: number): void {
    if (interceptTimeoutMs !== undefined) {
      if (!this.interceptV2) this.log(`subscribe: intercept_timeout_ms needs the ${INTERCEPT_V2} capability in hello; ignored`);
      else {
        if (interceptTimeoutMs > this.interceptMaxMs) {
          this.warn(`asked for a ${interceptTimeoutMs} ms interception deadline; the host allows at most ${this.interceptMaxMs} ms`);
        }
        this.interceptTimeoutMs = Math.min(interceptTimeoutMs, this.interceptMaxMs);
      }
    }
    for (const name of events) {
      if (!isLifecycleEventName(name)) this.log(`subscribe: unknown event "${name}" ignored`);
      else if (!this.permissions.allowsEvent(name)) {
        this.permissions.refuse("events", name, `subscribe: event "${name}" is not in permissions.events; it is not delivered`);
      } else this.events.add(name);
    }
    for (const name of intercepts) {
      if (!isInterceptableEventName(name) || (needsInterceptV2(name) && !this.interceptV2)) {
        this.log(`subscribe: "${name}" cannot be intercepted${isInterceptableEventName(name) ? ` without the ${INTERCEPT_V2} capability in hello` : ""}; `
          + "ignored (observe it with events instead)");
      } else if (!this.permissions.allowsIntercept(name)) {
        this.permissions.refuse("intercept", name, `subscribe: intercept "${name}" is not in permissions.intercept; it is not consulted`);
      } else this.intercepts.add(name);
    }
    this.registrationChanged();
  }

  becomeReady(mode: "ready" | "auto"): void {
    this.phase = "ready";
    this.readyMode = mode;
    this.startupMs = Date.now() - this.startedAt;
    this.settle();
  }

  /** Marks the extension failed, records the diagnostic, and has the driver stop it at once. */
  fail(reason: string): void {
    if (this.phase === "failed" || this.phase === "stopped") return;
    const duringStartup = this.phase === "starting" || this.phase === "registering";
    this.phase = "failed";
    this.startupMs = Date.now() - this.startedAt;
    const message = failureMessage(this, reason, duringStartup);
    this.errors.push(message);
    this.log(`error: ${reason}`);
    this.driver.abort(reason);
    this.settle();
    if (!duringStartup || this.startingInBackground) this.sink.onRuntimeFailure(this, message);
  }

  /** Graceful stop through the driver (the spec's 2 s grace), reaping what it started. */
  async shutdown(): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.settle();
    await this.driver.shutdown();
    if (this.phase !== "failed") this.phase = "stopped";
  }
}
