// An MCP server as a loaded extension: the same phases, diagnostics, log, registry entries and
// shutdown as a protocol extension, but the handshake is MCP's initialize (bounded by the hello
// deadline), its tools and prompts become zot tools and commands, and calls go through the SDK
// client (`bridge`) instead of protocol frames. The SDK is imported only when one starts.
import { isAbsolute, resolve } from "node:path";
import type { CommandResponseFrame, RegisterToolFrame } from "../../../protocol/index.ts";
import { errorOutcome } from "../../../tools/types.ts";
import { LoadedExtension, type ExtensionBridge } from "../extension.ts";
import { commandRegistrationProblem, toolRegistrationProblem } from "../registration-rules.ts";
import { describeExit, openExtensionLog, spawnExtension, type ExtensionLog } from "../spawn.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import type { McpServerInfo, McpSession } from "./client.ts";
import { expandServer } from "../../catalog/dot-mcp-json.ts";
import { isHttpConfig, type McpServerConfig } from "../../catalog/manifest-mcp.ts";
import { fillPromptArguments, promptUsage } from "./prompt-args.ts";
import { ServerStdinClosedError } from "./server-errors.ts";
import { bridgedToolNames } from "./tool-names.ts";

/** How long a process that closed the connection gets to report its exit status instead. */
const EXIT_REPORT_MS = 500;
/** The SDK's ErrorCode.ConnectionClosed (a constant here: the SDK is not loaded until a server starts). */
const CONNECTION_CLOSED = -32000;

export class McpExtension extends LoadedExtension {
  readonly config: McpServerConfig;
  /** The configuration it was started with (.mcp.json's variables expanded). */
  private started: McpServerConfig | undefined;
  /** What the server said about itself once initialized (the doctor's data). */
  server: McpServerInfo | undefined;
  private session: McpSession | undefined;
  private httpLog: ExtensionLog | undefined;
  private closing = false;
  /** zot tool name → server tool name (the doctor shows both); zot command name → prompt name. */
  readonly toolNames = new Map<string, string>();
  private readonly promptNames = new Map<string, string>();

  constructor(...args: ConstructorParameters<typeof LoadedExtension>) {
    super(...args);
    this.config = this.candidate.loaded!.manifest.mcp!;
    this.execLabel = isHttpConfig(this.config) ? "url" : "command";
  }

  private get prefixed(): boolean {
    return this.candidate.loaded!.manifest.prefix !== false;
  }

  override get logPath(): string | undefined {
    return this.httpLog ? this.httpLog.logPath : super.logPath;
  }

  override log(message: string): void {
    if (this.httpLog) this.httpLog.log(message);
    else super.log(message);
  }

  override start(): this {
    this.startedAt = Date.now();
    this.waitNoLongerThanHello();
    let config: McpServerConfig;
    try {
      config = this.source ? expandServer(this.config) : this.config;
    } catch (err) {
      this.fail(`cannot start: ${this.source}: ${(err as Error).message}`);
      return this;
    }
    this.started = config;
    if (isHttpConfig(config)) {
      this.httpLog = openExtensionLog(this.sink.logPath(this.name), `connecting to MCP server ${this.name}: ${config.url}`);
      this.begin();
      return this;
    }
    const isolation = this.sink.isolationFor?.(this.candidate);
    if (!isolation) this.spawnServer(config, undefined);
    // Deciding on a sandbox may wait for the bubblewrap probe; the event loop runs meanwhile.
    else void isolation.then((i) => this.spawnServer(config, i)).catch((err: unknown) => this.fail(`cannot start: ${(err as Error).message}`));
    return this;
  }

  private spawnServer(config: Exclude<McpServerConfig, { url: string }>, isolation: Isolation | undefined): void {
    // Shut down (zot stopping, a reload) before its sandbox was decided: it never starts.
    if (this.stopping || this.closing || this.phase !== "starting") return;
    try {
      // A server runs in the project, as other agent CLIs run it; a relative cwd is the folder's.
      const cwd = config.cwd === undefined ? this.sink.cwd() : isAbsolute(config.cwd) ? config.cwd : resolve(this.dir, config.cwd);
      this.process = spawnExtension({ name: this.name, dir: this.dir, exec: config.command, args: config.args ?? [],
        logPath: this.sink.logPath(this.name), cwd, env: config.env, isolation, allowEnv: this.allowEnv });
    } catch (err) {
      this.fail(`cannot start: ${(err as Error).message}`);
      return;
    }
    void this.process.exited.then((status) => {
      if (this.closing || this.stopping || this.phase === "failed" || this.phase === "stopped") return;
      this.fail(`${describeExit(status)} ${this.phase === "starting" ? "before answering MCP initialize" : "unexpectedly"}`);
    });
    this.begin();
  }

  /** The manifest's `startup_timeout_ms`, else the host's (5 s, a protocol extension's hello). */
  private get startupDeadline(): number {
    return this.config.startup_timeout_ms ?? this.timeouts.mcpStart;
  }

  /**
   * A server given longer than the hello window does not hold the run up: past that window the
   * host's start goes on, and its tools join when it is ready (a failure then is an ext_error).
   */
  private waitNoLongerThanHello(): void {
    if (this.startupDeadline <= this.timeouts.hello) return;
    this.startupWait = Promise.race([this.settled, new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (this.phase === "starting") {
          this.startingInBackground = true;
          this.log(`still starting after ${this.timeouts.hello} ms; the run goes on, and its tools join when it is ready`);
        }
        resolve();
      }, this.timeouts.hello);
      void this.settled.then(() => clearTimeout(timer));
    })]);
  }

  /** The connection to the server, under its start-up deadline. */
  private begin(): void {
    for (const warning of this.warnings) this.log(`warning: ${warning}`);
    const deadline = this.startupDeadline;
    this.helloTimer = setTimeout(() => {
      this.readyMode = "timeout";
      this.fail(`did not answer MCP initialize (and list its tools) within ${deadline} ms`
        + (this.config.startup_timeout_ms === undefined ? "; a slow server can be given longer with startup_timeout_ms" : ""));
    }, deadline);
    void this.connect();
  }

  private async connect(): Promise<void> {
    let session: McpSession;
    try {
      const { connectMcp } = await import("./client.ts");
      session = await connectMcp({
        config: this.started ?? this.config,
        process: this.process,
        log: (message) => this.log(message),
        onListsChanged: () => this.register(),
        onClosed: () => this.connectionClosed(),
        onFatal: (reason) => this.fail(reason),
      });
    } catch (err) {
      if (this.closing) return; // zot is stopping it: not the server's failure
      // A process that died (or never started: a missing command) says more with its exit status
      // than the SDK's "connection closed" or a write to its closed stdin.
      const closed = (err as { code?: unknown }).code === CONNECTION_CLOSED || err instanceof ServerStdinClosedError;
      if (closed && this.process && await exitsWithin(this.process.exited, EXIT_REPORT_MS)) return;
      return this.fail(`${closed ? "closed the connection during" : "answered"} MCP initialize${closed ? "" : " wrongly"}: ${(err as Error).message}`);
    }
    if (this.phase !== "starting" || this.closing) {
      await session.close();
      return;
    }
    clearTimeout(this.helloTimer);
    this.session = session;
    this.server = session.info;
    this.version = session.info.version || undefined;
    this.bridge = this.makeBridge(session);
    this.phase = "registering";
    this.register();
    this.becomeReady("ready");
  }

  private connectionClosed(): void {
    if (this.closing || this.stopping || this.phase === "failed" || this.phase === "stopped") return;
    // For stdio the exit handler reports the status; HTTP has no process to wait for.
    if (this.process) {
      void exitsWithin(this.process.exited, EXIT_REPORT_MS).then((exited) => exited || this.fail("closed the MCP connection"));
    } else this.fail("closed the MCP connection");
  }

  /** (Re)builds the tool and command lists from the server's; the registry follows. */
  private register(): void {
    const info = this.server;
    if (!info) return;
    this.tools.length = 0;
    this.toolNames.clear();
    const names = bridgedToolNames(this.name, info.tools.map((t) => t.name), this.prefixed);
    for (const tool of info.tools) {
      const frame: RegisterToolFrame = {
        type: "register_tool", name: names.get(tool.name)!,
        description: tool.description ?? tool.title ?? "", schema: tool.inputSchema as RegisterToolFrame["schema"],
      };
      const problem = toolRegistrationProblem(frame);
      if (problem) {
        this.dropRegistration("tool", frame.name, problem);
        continue;
      }
      this.toolNames.set(frame.name, tool.name);
      this.tools.push(frame);
    }
    this.commands.length = 0;
    this.promptNames.clear();
    for (const prompt of info.prompts) {
      const name = `${this.prefixed ? `${this.name}:` : ""}${prompt.name.replace(/\s+/g, "-")}`;
      const problem = commandRegistrationProblem({ name });
      if (problem) {
        this.dropRegistration("command", name, problem);
        continue;
      }
      const usage = promptUsage(prompt.arguments ?? []);
      this.promptNames.set(name, prompt.name);
      this.commands.push({ name, description: `${prompt.description ?? prompt.title ?? "MCP prompt"}${usage ? ` (${usage})` : ""}` });
    }
    this.sink.onRegistrationChange(this);
  }

  private makeBridge(session: McpSession): ExtensionBridge {
    return {
      callTool: (name, args, options) => {
        const serverName = this.toolNames.get(name);
        if (serverName === undefined) return Promise.resolve(errorOutcome(`MCP server "${this.name}" no longer offers tool ${name}`));
        return session.callTool(serverName, args, options);
      },
      invokeCommand: async (name, args): Promise<CommandResponseFrame | { error: string }> => {
        const promptName = this.promptNames.get(name);
        const prompt = this.server?.prompts.find((p) => p.name === promptName);
        if (!prompt) return { error: `/${name}: MCP server "${this.name}" no longer offers this prompt` };
        const filled = fillPromptArguments(args, prompt.arguments ?? []);
        if (!filled.ok) return { error: `/${name}: ${filled.error}` };
        try {
          const text = await session.getPrompt(prompt.name, filled.args);
          return { type: "command_response", id: `mcp-${name}`, action: "prompt", prompt: text };
        } catch (err) {
          this.log(`prompt ${prompt.name}: ${(err as Error).message}`);
          return { error: `/${name} (MCP server "${this.name}"): ${(err as Error).message}` };
        }
      },
    };
  }

  override fail(reason: string): void {
    if (this.phase === "failed" || this.phase === "stopped") return;
    this.bridge = undefined;
    const session = this.session;
    this.session = undefined;
    void session?.close();
    super.fail(reason);
    this.httpLog?.dispose();
  }

  override async shutdown(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.bridge = undefined;
    // Closing stdin is MCP's way to stop a stdio server; the base class signals it if it lingers.
    const session = this.session;
    this.session = undefined;
    await session?.close();
    if (!session && this.process?.stdin.writable) this.process.stdin.end();
    await super.shutdown();
    this.httpLog?.dispose();
  }
}

function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), ms);
    void exited.then(() => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

