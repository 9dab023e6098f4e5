// The MCP driver: an MCP server as an extension. The same phases, diagnostics, log, registry
// entries and shutdown as a protocol extension (the shared record), but the handshake is MCP's
// initialize (bounded by the hello deadline), its tools and prompts become zot tools and
// commands, and calls go through the SDK client. The SDK is imported only when one starts.
import { isAbsolute, resolve } from "node:path";
import type { EventInterceptResponseFrame, RegisterToolFrame } from "../../../protocol/index.ts";
import { errorOutcome, type ToolOutcome } from "../../../tools/types.ts";
import type { Reply } from "../connection.ts";
import type { CommandReply, DriverContext, DriverToolCall, ExtensionDriver, McpServerDescription } from "../extension.ts";
import { killProcess, stopProcess } from "../process-stop.ts";
import { commandRegistrationProblem, toolRegistrationProblem } from "../registration-rules.ts";
import { describeExit, openExtensionLog, spawnExtension, type ExtensionLog, type ExtensionProcess } from "../spawn.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import type { McpServerInfo, McpSession } from "./client.ts";
import { mcpErrorText } from "./error-text.ts";
import { expandServer } from "../../catalog/dot-mcp-json.ts";
import { templatesIn, unexpand } from "../../catalog/unexpand.ts";
import { providerKeyProblem } from "../../catalog/permissions/passed-variables.ts";
import { isHttpConfig, type McpServerConfig } from "../../catalog/manifest-mcp.ts";
import { fillPromptArguments, promptUsage } from "./prompt-args.ts";
import { ServerStdinClosedError } from "./server-errors.ts";
import { bridgedToolNames } from "./tool-names.ts";

/** How long a process that closed the connection gets to report its exit status instead. */
const EXIT_REPORT_MS = 500;
/** The SDK's ErrorCode.ConnectionClosed (a constant here: the SDK is not loaded until a server starts). */
const CONNECTION_CLOSED = -32000;
const NEVER_WRITTEN = Promise.resolve(false);

export class McpDriver implements ExtensionDriver {
  readonly execLabel: string;
  readonly toolLabel = "MCP tool";
  readonly usesSdk = false;
  private readonly config: McpServerConfig;
  /** The configuration it was started with (.mcp.json's variables expanded). */
  private started: McpServerConfig | undefined;
  /** What the server said about itself once initialized (the doctor's data). */
  private server: McpServerInfo | undefined;
  private session: McpSession | undefined;
  private process: ExtensionProcess | undefined;
  private httpLog: ExtensionLog | undefined;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private calls = 0;
  /** zot tool name → server tool name (the doctor shows both); zot command name → prompt name. */
  private readonly toolNames = new Map<string, string>();
  private readonly promptNames = new Map<string, string>();

  constructor(private readonly context: DriverContext) {
    this.config = context.ext.candidate.loaded!.manifest.mcp!;
    this.execLabel = isHttpConfig(this.config) ? "url" : "command";
  }

  private get ext() {
    return this.context.ext;
  }

  private get prefixed(): boolean {
    return this.ext.candidate.loaded!.manifest.prefix !== false;
  }

  get logPath(): string | undefined {
    return this.httpLog ? this.httpLog.logPath : this.process?.logPath;
  }

  get isolation() {
    return this.process?.isolation ?? null;
  }

  log(message: string): void {
    if (this.httpLog) this.httpLog.log(message);
    else this.process?.log(message);
  }

  /** `message` with the values of the entry's `${VAR}`s shown as `${VAR}` again (an error may quote the expanded URL). */
  private shown(message: string): string {
    return unexpand(message, templatesIn(this.config), process.env);
  }

  start(): void {
    const { ext, sink } = this.context;
    this.waitNoLongerThanHello();
    let config: McpServerConfig;
    try {
      const keyProblem = ext.candidate.scope === "project" ? providerKeyProblem({ mcp: this.config }) : undefined;
      if (keyProblem) throw new Error(keyProblem);
      config = ext.source ? expandServer(this.config) : this.config;
    } catch (err) {
      return ext.fail(`cannot start: ${ext.source ? `${ext.source}: ` : ""}${(err as Error).message}`);
    }
    this.started = config;
    if (isHttpConfig(config)) {
      this.httpLog = openExtensionLog(sink.logPath(ext.name), `connecting to MCP server ${ext.name}: ${(this.config as typeof config).url}`);
      return this.begin();
    }
    const isolation = sink.isolationFor?.(ext.candidate);
    if (!isolation) this.spawnServer(config, undefined);
    // Deciding on a sandbox may wait for the bubblewrap probe; the event loop runs meanwhile.
    else void isolation.then((i) => this.spawnServer(config, i)).catch((err: unknown) => ext.fail(`cannot start: ${(err as Error).message}`));
  }

  private spawnServer(config: Exclude<McpServerConfig, { url: string }>, isolation: Isolation | undefined): void {
    const { ext, sink } = this.context;
    // Shut down (zot stopping, a reload) before its sandbox was decided: it never starts.
    if (ext.stopping || ext.phase !== "starting") return;
    try {
      // A server runs in the project, as other agent CLIs run it; a relative cwd is the folder's.
      const cwd = config.cwd === undefined ? sink.cwd() : isAbsolute(config.cwd) ? config.cwd : resolve(ext.dir, config.cwd);
      this.process = spawnExtension({ name: ext.name, dir: ext.dir, exec: config.command, args: config.args ?? [],
        logPath: sink.logPath(ext.name), cwd, env: config.env, isolation, allowEnv: ext.allowEnv });
    } catch (err) {
      return ext.fail(`cannot start: ${(err as Error).message}`);
    }
    void this.process.exited.then((status) => {
      if (ext.stopping || ext.phase === "failed" || ext.phase === "stopped") return;
      ext.fail(`${describeExit(status)} ${ext.phase === "starting" ? "before answering MCP initialize" : "unexpectedly"}`);
    });
    this.begin();
  }

  /** The manifest's `startup_timeout_ms`, else the host's (5 s, a protocol extension's hello). */
  private get startupDeadline(): number {
    return this.config.startup_timeout_ms ?? this.context.timeouts.mcpStart;
  }

  /**
   * A server given longer than the hello window does not hold the run up: past that window the
   * host's start goes on, and its tools join when it is ready (a failure then is an ext_error).
   */
  private waitNoLongerThanHello(): void {
    const { ext, timeouts } = this.context;
    if (this.startupDeadline <= timeouts.hello) return;
    ext.startupWait = Promise.race([ext.settled, new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (ext.phase === "starting") {
          ext.startingInBackground = true;
          ext.log(`still starting after ${timeouts.hello} ms; the run goes on, and its tools join when it is ready`);
        }
        resolve();
      }, timeouts.hello);
      void ext.settled.then(() => clearTimeout(timer));
    })]);
  }

  /** The connection to the server, under its start-up deadline. */
  private begin(): void {
    const ext = this.ext;
    for (const warning of ext.warnings) this.log(`warning: ${warning}`);
    const deadline = this.startupDeadline;
    this.startTimer = setTimeout(() => {
      ext.readyMode = "timeout";
      ext.fail(`did not answer MCP initialize (and list its tools) within ${deadline} ms`
        + (this.config.startup_timeout_ms === undefined ? "; a slow server can be given longer with startup_timeout_ms" : ""));
    }, deadline);
    void this.connect();
  }

  private async connect(): Promise<void> {
    const ext = this.ext;
    let session: McpSession;
    try {
      const { connectMcp } = await import("./client.ts");
      session = await connectMcp({
        config: this.started ?? this.config,
        process: this.process,
        log: (message) => this.log(message),
        onListsChanged: () => this.register(),
        onClosed: () => this.connectionClosed(),
        onFatal: (reason) => ext.fail(this.shown(reason)),
      });
    } catch (err) {
      if (ext.stopping) return; // zot is stopping it: not the server's failure
      // A process that died (or never started: a missing command) says more with its exit status
      // than the SDK's "connection closed" or a write to its closed stdin.
      const closed = (err as { code?: unknown }).code === CONNECTION_CLOSED || err instanceof ServerStdinClosedError;
      if (closed && this.process && await exitsWithin(this.process.exited, EXIT_REPORT_MS)) return;
      return ext.fail(`${closed ? "closed the connection during" : "answered"} MCP initialize${closed ? "" : " wrongly"}: ${this.shown((err as Error).message)}`);
    }
    if (ext.phase !== "starting" || ext.stopping) {
      await session.close();
      return;
    }
    clearTimeout(this.startTimer);
    this.session = session;
    this.server = session.info;
    ext.version = session.info.version || undefined;
    ext.phase = "registering";
    this.register();
    ext.becomeReady("ready");
  }

  private connectionClosed(): void {
    const ext = this.ext;
    if (ext.stopping || ext.phase === "failed" || ext.phase === "stopped") return;
    // For stdio the exit handler reports the status; HTTP has no process to wait for.
    if (this.process) {
      void exitsWithin(this.process.exited, EXIT_REPORT_MS).then((exited) => exited || ext.fail("closed the MCP connection"));
    } else ext.fail("closed the MCP connection");
  }

  /** (Re)builds the tool and command lists from the server's; the registry follows. */
  private register(): void {
    const { ext, server: info } = this;
    if (!info) return;
    ext.tools.length = 0;
    this.toolNames.clear();
    const names = bridgedToolNames(ext.name, info.tools.map((t) => t.name), this.prefixed);
    for (const tool of info.tools) {
      const frame: RegisterToolFrame = {
        type: "register_tool", name: names.get(tool.name)!,
        description: tool.description ?? tool.title ?? "", schema: tool.inputSchema as RegisterToolFrame["schema"],
      };
      const problem = toolRegistrationProblem(frame);
      if (problem) {
        ext.dropRegistration("tool", frame.name, problem);
        continue;
      }
      this.toolNames.set(frame.name, tool.name);
      ext.tools.push(frame);
    }
    ext.commands.length = 0;
    this.promptNames.clear();
    for (const prompt of info.prompts) {
      const name = `${this.prefixed ? `${ext.name}:` : ""}${prompt.name.replace(/\s+/g, "-")}`;
      const problem = commandRegistrationProblem({ name });
      if (problem) {
        ext.dropRegistration("command", name, problem);
        continue;
      }
      const usage = promptUsage(prompt.arguments ?? []);
      this.promptNames.set(name, prompt.name);
      ext.commands.push({ name, description: `${prompt.description ?? prompt.title ?? "MCP prompt"}${usage ? ` (${usage})` : ""}` });
    }
    ext.registrationChanged();
  }

  newRequestId(kind: string): string {
    return `mcp-${kind}-${++this.calls}`;
  }

  async callTool(call: DriverToolCall): Promise<ToolOutcome> {
    const serverName = this.toolNames.get(call.name);
    const session = this.session;
    if (serverName === undefined || !session) return errorOutcome(`MCP server "${this.ext.name}" no longer offers tool ${call.name}`);
    return session.callTool(serverName, call.args, { signal: call.signal, timeoutMs: call.timeoutMs,
      ...(call.onProgress ? { onProgress: call.onProgress } : {}) });
  }

  async invokeCommand(name: string, args: string): Promise<CommandReply> {
    const ext = this.ext;
    const promptName = this.promptNames.get(name);
    const prompt = this.server?.prompts.find((p) => p.name === promptName);
    const session = this.session;
    if (!prompt || !session) return { error: `/${name}: MCP server "${ext.name}" no longer offers this prompt` };
    const filled = fillPromptArguments(args, prompt.arguments ?? []);
    if (!filled.ok) return { error: `/${name}: ${filled.error}` };
    try {
      const text = await session.getPrompt(prompt.name, filled.args);
      return { type: "command_response", id: `mcp-${name}`, action: "prompt", prompt: text };
    } catch (err) {
      this.log(`prompt ${prompt.name}: ${mcpErrorText(err)}`);
      return { error: `/${name} (MCP server "${ext.name}"): ${mcpErrorText(err)}` };
    }
  }

  /** An MCP server takes no protocol frames: events, panels and call_tool are not its. */
  deliver(): boolean {
    return false;
  }

  /** Never asked: an MCP server subscribes to nothing. */
  intercept(): Promise<Reply<EventInterceptResponseFrame>> {
    return Promise.resolve({ ok: false, reason: "disconnected", message: "an MCP server does not intercept events",
      delivered: false, written: NEVER_WRITTEN });
  }

  describe(): { mcp: McpServerDescription } {
    const server = this.server;
    return { mcp: {
      transport: isHttpConfig(this.config) ? "http" : "stdio",
      server: server?.name || null,
      version: server?.version || null,
      tools: server?.tools.map((t) => t.name) ?? [],
      toolNames: this.toolNames,
      prompts: server?.prompts.map((p) => p.name) ?? [],
      resources: server?.resources.map((r) => r.uri) ?? [],
    } };
  }

  abort(): void {
    clearTimeout(this.startTimer);
    const session = this.session;
    this.session = undefined;
    void session?.close();
    void killProcess(this.process, this.context.timeouts.shutdownGrace);
    this.httpLog?.dispose();
  }

  /** Closing stdin is MCP's way to stop a stdio server; it is signalled if it lingers. */
  async shutdown(): Promise<void> {
    clearTimeout(this.startTimer);
    const session = this.session;
    this.session = undefined;
    await session?.close();
    const proc = this.process;
    if (!session && proc?.stdin.writable) proc.stdin.end();
    if (proc) {
      proc.rememberDescendants();
      const grace = this.context.timeouts.shutdownGrace;
      await stopProcess(proc, grace, Date.now() + grace);
    }
    this.httpLog?.dispose();
  }
}

export const createMcpDriver = (context: DriverContext): ExtensionDriver => new McpDriver(context);

function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), ms);
    void exited.then(() => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

