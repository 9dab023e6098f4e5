// The extension host: routes everything between its extensions (found and started by
// ExtensionSet) and the rest of zot — commands, tools, lifecycle events, interception (it
// implements AgentHooks), call_tool, panels, notes, reload and shutdown. A misbehaving extension
// becomes a diagnostic (`ext_error`, its log, the doctor report) and never takes the host down.
import { join } from "node:path";
import type { DriverFactories } from "../runtime/extension.ts";
import { isLifecycleEvent, type HostEvent } from "../../events/index.ts";
import type { EventBus } from "../../agent/event-bus.ts";
import type { ConfirmationAnswer } from "../../agent/loop/permissions.ts";
import type {
  AgentEndInput, AgentHooks, ConfirmationInput, BeforeAgentStartInput, InterceptedAgentEnd, InterceptedAssistantMessage, InterceptedPrompt,
  InterceptedToolCall, InterceptedToolResult, InterceptedTurnStart, PromptInput, ProposedToolCall, ToolResultInput,
} from "../../agent/contracts/hooks.ts";
import { extensionLogPath, type ZotPaths } from "../../paths.ts";
import type { CommandResponseFrame } from "../../protocol/index.ts";
import { errorOutcome, type Tool, type ToolOutcome } from "../../tools/types.ts";
import { CallToolRouter, type RunTool } from "./call-tool.ts";
import { invokeExtensionCommand } from "./command-invoke.ts";
import { deliverEvent } from "./events.ts";
import type { LoadedExtension } from "../runtime/extension.ts";
import { ExtensionSet } from "./extension-set.ts";
import { InterceptorChains } from "./intercept.ts";
import { probeInterceptors, type InterceptorProbe } from "./intercept-probe.ts";
import { Panels, type OpenPanel } from "./panels.ts";
import { commandKey } from "./registry.ts";
import { buildReports, type ExtensionReport } from "./report.ts";
import { routeRuntimeFrame, type RuntimeFrameRoutes } from "./runtime-frames.ts";
import type { AbsentGuard } from "../catalog/permissions/absent-guards.ts";
import { isolationFor, type HostSandboxSettings } from "../runtime/sandbox/for-candidate.ts";
import { pluginBins, pluginFolders, skillInputs } from "../catalog/bundle-inputs.ts";
import type { HostTrust } from "../catalog/trust/host-trust.ts";
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS, type HostLimits, type HostTimeouts } from "../runtime/settings.ts";
import { ActiveCalls, ToolProxies } from "./tool-proxy.ts";

export type { ExtensionReport } from "./report.ts";
export type { HostTimeouts, HostLimits } from "../runtime/settings.ts";
export type { OpenPanel } from "./panels.ts";

/**
 * What the host needs from the agent session it is attached to: the event bus (lifecycle
 * events in, ext_* events out), the live provider and model, and a way to run a tool.
 */
export interface HostAgent {
  readonly bus: EventBus;
  info(): { provider: string; model: string };
  /**
   * call_tool: run a tool through the agent's normal guards and confirmation policy. Must pass
   * `parentId` and a signal derived from `signal` on to the tool's ToolExecutionContext. Without
   * it, only extension tools are callable, guarded by this host's own tool_call interceptors.
   */
  runTool?: RunTool;
}

export interface ExtensionHostOptions {
  /** Project directory: discovery of ./.zot/extensions and hello_ack.cwd (a reload may move it). */
  cwd: string;
  /** $ZOT_HOME layout (global extensions, logs). */
  paths: ZotPaths;
  /** --ext paths: loaded first, win over discovered ones by name, remembered across reload. */
  explicit?: string[];
  /** false for --no-ext: skip discovery (explicit ones still load). */
  discover?: boolean;
  /** The session the host serves. */
  agent: HostAgent;
  /** false in print/json/rpc: interactive tools are rejected and `submit` frames ignored. */
  interactive: boolean;
  /** Built-in slash commands win over extension ones. */
  builtinCommands?: string[];
  /** Default BUILTIN_TOOL_NAMES; built-ins win. */
  builtinTools?: string[];
  /** A `submit` frame (interactive hosts only). */
  onSubmit?(extension: string, text: string): void;
  timeouts?: Partial<HostTimeouts>;
  limits?: Partial<HostLimits>;
  /** OS sandboxing of extensions that declare fs or network permissions (default: enabled). */
  sandbox?: HostSandboxSettings;
  /** How each kind of extension is driven: the application's kind → driver map. */
  drivers: DriverFactories;
  /**
   * Which discovered extensions may start (trust.json, --trust-project, the REPL's question).
   * Absent: all of them, as the embedder vouches for what it loads; zot's runtime always sets it.
   */
  trust?: HostTrust;
}

export class ExtensionHost implements AgentHooks {
  private readonly set: ExtensionSet;
  private readonly activeCalls = new ActiveCalls();
  private readonly toolProxies: ToolProxies;
  /** `zot ext doctor`'s interceptor probes, per extension. */
  private probes = new WeakMap<LoadedExtension, InterceptorProbe[]>();
  private readonly panels: Panels;
  private readonly interceptors: InterceptorChains;
  private readonly callTool: CallToolRouter;
  private readonly timeouts: HostTimeouts;
  private readonly limits: HostLimits;
  private unsubscribe: (() => void) | undefined;
  private reloading: Promise<void> | undefined;
  private closed = false;
  /** The project directory extensions are discovered in and told about. */
  private cwd: string;

  constructor(private readonly options: ExtensionHostOptions) {
    this.cwd = options.cwd;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.toolProxies = new ToolProxies({ interactive: options.interactive, toolCallTimeoutMs: this.timeouts.toolCall,
      maxOutputBytes: this.limits.toolOutputBytes, activeCalls: this.activeCalls }, () => this.set.registry.tools);
    this.panels = new Panels((event) => this.publish(event), (owner) => this.activeCalls.hasActive(owner, { interactive: true }));
    this.interceptors = new InterceptorChains({
      extensions: () => this.set.loaded,
      absentGuards: () => this.set.absentGuards,
      timeoutMs: () => this.timeouts.intercept,
      warn: (ext, message) => this.warn(ext, message),
      toolOwner: (name) => {
        const owner = this.set.loaded.find((ext) => ext.alive && ext.tools.some((t) => t.name === name));
        if (!owner) return undefined;
        const described = owner.driver.describe?.();
        const serverName = described && "mcp" in described ? described.mcp.toolNames.get(name) : undefined;
        return { extension: owner.name, kind: owner.candidate.loaded?.kind ?? "protocol", ...(serverName ? { name: serverName } : {}) };
      },
    });
    this.callTool = new CallToolRouter({
      activeCalls: this.activeCalls,
      timeoutMs: () => this.timeouts.callTool,
      cwd: () => this.cwd,
      runTool: options.agent.runTool ?? ((name, args, ctx) => this.runOwnTool(name, args, ctx)),
    });
    const routes: RuntimeFrameRoutes = {
      publish: (event) => this.publish(event), panels: this.panels, callTool: this.callTool,
      ...(options.interactive && options.onSubmit ? { onSubmit: options.onSubmit } : {}),
    };
    const { paths, explicit, discover, trust, builtinCommands, builtinTools, drivers } = options;
    this.set = new ExtensionSet({
      paths, explicit, discover, trust, builtinCommands, builtinTools, drivers,
      timeouts: this.timeouts,
      limits: this.limits,
      publish: (event) => this.publish(event),
      publishError: (ext, message) => this.publishError(ext, message),
      sink: {
        cwd: () => this.cwd,
        interactive: options.interactive,
        hostInfo: () => options.agent.info(),
        logPath: (name) => extensionLogPath(paths, name),
        pythonCacheDir: join(paths.home, "cache", "python"),
        onRuntimeFrame: (ext, frame) => routeRuntimeFrame(ext, frame, routes),
        onRegistrationChange: () => this.set.rebuildRegistry(),
        onRuntimeFailure: (ext, message) => this.onRuntimeFailure(ext, message),
        onRegistrationDropped: (ext, message) => this.publishError(ext, message),
        isolationFor: (candidate) => isolationFor(candidate, options.sandbox ?? { enabled: true }, { cwd: this.cwd, paths }),
      },
    });
  }

  /**
   * Discovers and starts every extension in parallel. Resolves when each one is ready,
   * auto-ready or failed; never rejects for an extension's fault.
   */
  static async start(options: ExtensionHostOptions): Promise<ExtensionHost> {
    const host = new ExtensionHost(options);
    await host.start();
    return host;
  }

  /** The same for a host built first (so a session can attach it before extensions start). */
  async start(): Promise<void> {
    if (this.unsubscribe) throw new Error("the extension host is already started");
    this.unsubscribe = this.options.agent.bus.subscribe((event, delivery) => {
      if (delivery.extensions && isLifecycleEvent(event)) deliverEvent(event, this.set.loaded);
    });
    await this.set.load(this.cwd);
  }

  /** Resolves once every extension's start is over, also a slow MCP server's the run went on without. */
  async startupComplete(): Promise<void> {
    await Promise.all(this.set.loaded.map((ext) => ext.settled));
  }

  /** Fail-closed guards of config.json that are not running (doctor reports them). */
  absentGuards(): readonly AbsentGuard[] {
    return this.set.absentGuards;
  }

  /** The doctor's data: one report per discovered folder, in load order. */
  reports(): ExtensionReport[] {
    return buildReports(this.set.candidates, this.set.byCandidate, this.set.registry, this.options.paths, (ext) => this.probes.get(ext),
      this.set.themeReader, this.timeouts.intercept);
  }

  /**
   * Sends every running interceptor one probe request per event it intercepts and records how
   * it answered and how fast (for `zot ext doctor`). Extensions are probed in parallel.
   */
  async probeInterceptors(): Promise<void> {
    await Promise.all(this.set.loaded.filter((ext) => ext.alive).map(async (ext) => {
      this.probes.set(ext, await probeInterceptors(ext, { cwd: this.options.cwd, ...this.options.agent.info() }, this.timeouts.intercept));
    }));
  }

  /** Manifest `skills` entries of the extensions this run uses, in load order, for skill discovery. */
  skillInputs(): Array<{ dir: string; skills: string[] }> {
    return skillInputs(this.set.candidates);
  }

  /** The bin/ folders of the plugins this run uses, for the bash tool's PATH. */
  pluginBins(): string[] {
    return pluginBins(this.set.candidates);
  }

  /** The agent type folders of the plugins this run uses, in load order. */
  agentInputs(): Array<{ dir: string; plugin: string }> {
    return pluginFolders(this.set.candidates, "agents");
  }

  /** The output style folders of the plugins this run uses, in load order. */
  outputStyleInputs(): Array<{ dir: string; plugin: string }> {
    return pluginFolders(this.set.candidates, "outputStyles");
  }

  /** Active extension commands (canonical spelling), excluding those of stopped extensions. */
  commands(): Array<{ name: string; description: string; extension: string }> {
    return [...this.set.registry.commands.values()]
      .filter((c) => c.extension.alive)
      .map((c) => ({ name: c.name, description: c.description, extension: c.extension.name }));
  }

  /** Active extension tools: deferred ones only after a tool_result activated them. */
  tools(): Tool[] {
    return this.toolProxies.active();
  }

  /**
   * The model provider refused extension tool `name` and the session dropped it: recorded as a
   * warning of its extension (log, doctor's `/ext`).
   */
  toolRefused(name: string, error: string): void {
    const entry = this.set.registry.tools.get(name);
    entry?.extension.warn(`the model provider refused tool "${name}" (${error}); it is dropped for the rest of the session`);
  }

  /**
   * Runs an extension command. undefined: no such extension command (or a built-in owns the
   * name). An `open_panel` response opens the panel here; every other action is the caller's.
   */
  async invokeCommand(name: string, args: string): Promise<CommandResponseFrame | { error: string } | undefined> {
    const key = commandKey(name);
    if ((this.options.builtinCommands ?? []).some((b) => commandKey(b) === key)) return undefined;
    const entry = this.set.registry.commands.get(key);
    if (!entry) return undefined;
    return invokeExtensionCommand(entry, args, { timeoutMs: this.timeouts.command, callTool: this.callTool, panels: this.panels });
  }

  /** A key for a panel: routed to the extension that owns it. */
  panelKey(panelId: string, key: string, text?: string): void {
    this.panels.key(panelId, key, text);
  }

  /** The user closed a panel: `panel_close` goes to its extension. */
  closePanel(panelId: string): void {
    this.panels.closeFromUser(panelId);
  }

  openPanels(): OpenPanel[] {
    return this.panels.list();
  }

  // AgentHooks ---------------------------------------------------------------------------------

  beforeAgentStart(input: BeforeAgentStartInput): Promise<string> {
    return this.interceptors.beforeAgentStart(input);
  }

  interceptTurnStart(step: number, signal?: AbortSignal): Promise<InterceptedTurnStart> {
    return this.interceptors.turnStart(step, signal);
  }

  interceptToolCall(call: ProposedToolCall, signal?: AbortSignal): Promise<InterceptedToolCall> {
    // A call an extension made (call_tool, a tool_prompt action) must be within its grant; the
    // agent turns the block into permission_decision denied/policy and an is_error result.
    const origin = call.originExtension === undefined ? undefined : this.set.loaded.find((e) => e.name === call.originExtension);
    if (origin && !origin.permissions.allowsTool(call.toolName)) {
      origin.permissions.refuse("tools", call.toolName, `call of tool ${call.toolName} refused: it is not in permissions.tools`);
      return Promise.resolve({ block: true, reason: `not permitted: ${origin.name} may not call ${call.toolName}`, args: call.toolArgs });
    }
    return this.interceptors.toolCall(call, signal);
  }

  interceptsAssistantMessage(): boolean {
    return this.interceptors.interceptors("assistant_message").length > 0 || this.interceptors.absentGuard("assistant_message") !== undefined;
  }

  interceptAssistantMessage(text: string, signal?: AbortSignal): Promise<InterceptedAssistantMessage> {
    return this.interceptors.assistantMessage(text, signal);
  }

  interceptToolResult(result: ToolResultInput, signal?: AbortSignal): Promise<InterceptedToolResult> {
    return this.interceptors.points.toolResult(result, signal);
  }

  interceptPrompt(prompt: PromptInput, signal?: AbortSignal): Promise<InterceptedPrompt> {
    return this.interceptors.points.prompt(prompt, signal);
  }

  interceptAgentEnd(end: AgentEndInput, signal?: AbortSignal): Promise<InterceptedAgentEnd> {
    return this.interceptors.points.agentEnd(end, signal);
  }

  interceptConfirmation(input: ConfirmationInput, signal?: AbortSignal): Promise<ConfirmationAnswer | undefined> {
    return this.interceptors.points.confirmation(input, signal);
  }

  // Lifecycle ----------------------------------------------------------------------------------

  /**
   * Tears every extension down, re-reads the manifests and respawns the set, explicit paths
   * included. Each failure is published as ext_error. The session is not closed and earlier
   * events are not replayed. With `cwd` (a working-directory change) the new set is the one
   * that project discovers, and hello_ack tells it the new directory.
   */
  reload(target: { cwd?: string } = {}): Promise<void> {
    // Read when the set loads, so a reload already stopping the old set also lands in the new directory.
    if (target.cwd !== undefined) this.cwd = target.cwd;
    this.reloading ??= (async () => {
      try {
        this.panels.closeAllOf();
        await this.stopAll();
        if (!this.closed) await this.set.load(this.cwd);
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /** Drains queues, sends `shutdown`, waits the grace period, then SIGTERM/SIGKILL per group. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reloading?.catch(() => undefined);
    this.unsubscribe?.();
    await this.stopAll();
  }

  // Internals ----------------------------------------------------------------------------------

  private async stopAll(): Promise<void> {
    for (const ext of await this.set.stop()) this.callTool.disconnect(ext);
  }

  private publish(event: HostEvent): void {
    this.options.agent.bus.host(event);
  }

  private publishError(ext: LoadedExtension, message: string): void {
    this.publish({ type: "ext_error", extension: ext.name, message, ...(ext.logPath ? { log_path: ext.logPath } : {}) });
  }

  private warn(ext: LoadedExtension, message: string): void {
    ext.warn(message);
    this.publish({ type: "ext_notify", extension: ext.name, level: "warn", message });
  }

  private onRuntimeFailure(ext: LoadedExtension, message: string): void {
    this.panels.closeAllOf(ext);
    this.callTool.disconnect(ext);
    this.publishError(ext, message);
    if (!this.closed) this.set.failed(ext);
  }

  /** call_tool without an agent: extension tools only, through this host's own interceptors. */
  private async runOwnTool(name: string, args: Record<string, unknown>,
    ctx: { originExtension: string; parentId?: string; signal: AbortSignal }): Promise<ToolOutcome> {
    const tool = this.tools().find((t) => t.name === name);
    if (!tool) return errorOutcome(`unknown tool ${name}: no active agent tool registry (available: ${this.tools().map((t) => t.name).join(", ") || "none"})`);
    const decision = await this.interceptToolCall({ toolId: `call-tool-${name}`, toolName: name, toolArgs: args,
      originExtension: ctx.originExtension }, ctx.signal);
    if (decision.block) return errorOutcome(decision.reason ?? "blocked", "blocked");
    return tool.execute(decision.args, { cwd: this.cwd, signal: ctx.signal, originExtension: ctx.originExtension,
      parentId: ctx.parentId });
  }
}
