// Builds everything one zot process runs on: paths, settings, the provider, the event bus, the
// extension host and the agent session, wired so the host's call_tool goes through the
// session's guards and the session's hooks are the host's interceptors. The mode is behind a
// Frontend (frontend.ts); what it may do with the run is the Runtime (runtime-surface.ts).
import type { SessionBranching } from "./session-branches.ts";
import { extensionDrivers } from "../extensions/runtime/drivers.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { AgentSession } from "../agent/session/agent-session.ts";
import { listSessions, openSession } from "../agent/session/session-select.ts";
import { discoverSkills } from "../coding/skills.ts";
import { UsageError } from "../errors.ts";
import { readConfig, updateConfig, type ZotConfig } from "../config.ts";
import { ExtensionHost, type HostAgent } from "../extensions/host/host.ts";
import { DEFAULT_TOOL_OUTPUT_BYTES, toolOutputLimitFromEnv } from "../extensions/runtime/output-cap.ts";
import { TIMEOUTS_ENV, timeoutsFromEnv } from "../extensions/runtime/settings.ts";
import { recordedTrust } from "../extensions/catalog/trust/host-trust.ts";
import { projectSkillsDir, zotPaths } from "../paths.ts";
import { readTrust } from "../extensions/catalog/trust/store.ts";
import { projectKey } from "../extensions/catalog/trust/gate.ts";
import { needsApiKey, resolveApiKey } from "../providers/index.ts";
import { keyedProvider, type KeyedProvider } from "../providers/keyed.ts";
import { useUserModels } from "../providers/models.ts";
import { readUserModels } from "../providers/user-models.ts";
import type { Provider } from "../providers/types.ts";
import { unknownToolNames } from "../tools/builtin-tools.ts";
import { BUILTIN_TOOL_NAMES } from "../protocol/limits.ts";
import { subagentOptionsFromEnv } from "./subagents/env-settings.ts";
import { SubagentSupervisor, DEFAULT_MAX_SUBAGENT_DEPTH, type ParentView, type SubagentOptions } from "./subagents/supervisor.ts";
import type { Skill } from "../tools/skill-file.ts";
import type { FileAccess } from "../tools/file-access.ts";
import type { Confirmer } from "../agent/loop/permissions.ts";
import { BUILTIN_COMMANDS } from "./builtin-commands.ts";
import type { Frontend } from "./frontend.ts";
import type { Runtime } from "./runtime-surface.ts";
import { isCommandLine, runSlash } from "./slash.ts";
import { resolveRunConfig, type RunConfig, type RunConfigInput } from "./run-config.ts";
import { parseModelSpec, resolveModelSettings, type ModelSettings } from "./settings.ts";
import { resolveWorkdir, workdirProblem } from "./workdir.ts";
import { OUTPUT_STYLE_KEY, OutputStyleChoice } from "./output-style.ts";
import { SessionCheckpoints } from "./checkpoints.ts";
import type { CommandTerminal } from "../tools/command-terminal.ts";
import { ensurePrivateDir } from "../fs/private-dir.ts";

export type { Runtime } from "./runtime-surface.ts";

export interface RuntimeOptions {
  /** Who the run shows its events to and asks: warnings, tool confirmations, project trust, submit frames. */
  frontend: Frontend;
  /** Where API keys, ZOT_HOME and ZOT_PROVIDER/ZOT_MODEL are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** True in the REPL: interactive tools may show panels and `submit` frames are honoured. */
  interactive?: boolean;
  /** Subagents: this run's depth, the depth limit, the runner time limit, concurrency. */
  subagents?: SubagentOptions;
  /** How long close() lets running subagents finish before stopping them (default 2 s). */
  subagentsGraceMs?: number;
  /**
   * The run never asks a model (`zot mcp serve` only runs tools): no API key is needed, and a
   * prompt fails with a clear error instead of reaching a provider.
   */
  withoutModel?: boolean;
  /** A one-shot run that asks the model as soon as it is built: the provider warms up meanwhile. */
  warmProvider?: boolean;
  /** Where the built-in file tools read and write (`zot acp`: the editor's buffers); default the disk. */
  files?: FileAccess;
  /** Where bash runs its commands instead of zot's own shell (an editor's terminal in `zot acp`). */
  terminal?: CommandTerminal;
}

function resolveCwd(cwd: string): string {
  const dir = resolve(cwd);
  if (workdirProblem(dir)) throw new UsageError(`--cwd ${dir} is not a directory`);
  return dir;
}

/** The host's view of a session: its bus, its live model, and tools run through its guards. */
function hostAgentOf(session: AgentSession): HostAgent {
  return {
    bus: session.bus,
    info: () => session.info(),
    // A session's SettledToolCall is a ToolOutcome, and the host's call context is a RunToolContext.
    runTool: (name, args, ctx) => session.runTool(name, args, ctx),
  };
}

/** The text of one extension or MCP tool result the model gets: the environment, config.json's tool_output_max_bytes, or 50 KiB. */
function toolOutputLimit(env: Record<string, string | undefined>, saved: ZotConfig): number {
  const fromConfig = saved.tool_output_max_bytes;
  return toolOutputLimitFromEnv(env)
    ?? (typeof fromConfig === "number" && Number.isInteger(fromConfig) && fromConfig > 0 ? fromConfig : DEFAULT_TOOL_OUTPUT_BYTES);
}

/**
 * Builds one run: the agent session first, then the extension host attached to it. Calling it
 * again with another config builds an independent second session in the same process.
 * What the run shows or asks goes to `io.frontend`; the modes talk back through the Runtime.
 */
export async function createRuntime(input: RunConfigInput, io: RuntimeOptions): Promise<Runtime> {
  // The one place a run's config gets its defaults: callers pass what they were given.
  const config = resolveRunConfig(input);
  const { frontend } = io;
  const env = io.env ?? process.env;
  // The session owns the working directory from here on; /cd moves it there.
  const cwd = resolveCwd(config.cwd);
  if (config.tools) {
    const unknown = unknownToolNames(config.tools);
    if (unknown.length > 0) throw new UsageError(`unknown tool ${unknown.join(", ")} in --tools (built-in tools: ${BUILTIN_TOOL_NAMES.join(", ")})`);
  }
  const paths = zotPaths(env);
  // Sessions, keys and logs live there: only this user may look in.
  ensurePrivateDir(paths.home);
  const warn = (message: string) => frontend.warn(message);
  const saved = await readConfig(paths.config, warn);
  useUserModels(readUserModels(paths.models, warn));
  const settings = resolveModelSettings(config, env, saved, (m) => warn(`${paths.config}: ${m}`));
  const sdkWarn = onceEach(frontend.notice ? (message) => frontend.notice!(message) : warn);
  const providerFor = (s: ModelSettings, warm = false): Provider & Partial<KeyedProvider> => io.withoutModel ? modelless(s.provider) :
    keyedProvider({
      warm,
      provider: s.provider,
      baseUrl: s.baseUrl,
      warn: sdkWarn,
      authFile: paths.auth,
      // Looked up at each request: the run starts without a key, and a login counts at once.
      resolveKey: () => resolveApiKey({ provider: s.provider, flag: config.apiKey, env, authFile: paths.auth })?.key,
    });
  const rememberModel = async () => {
    await updateConfig(paths.config, { provider: session.info().provider, model: session.info().model }).catch((err: Error) =>
      warn(`could not save ${paths.config}: ${err.message}`));
  };

  const opened = openSession(config.session, {
    sessionsDir: paths.sessions, cwd, provider: settings.provider, model: settings.model,
  });
  // Where a switch or a cwd change opens its conversation: the live model, the given directory.
  const sessionsOf = (dir: string) => ({ sessionsDir: paths.sessions, cwd: dir, provider: session.info().provider, model: session.info().model });
  // Without saving (--no-session) a fresh conversation stays in memory too.
  const fresh = () => (config.session.kind === "none" ? { kind: "none" as const } : { kind: "new" as const });
  const skills = new SkillCatalog(config, paths.home, warn);
  const checkpoints = new SessionCheckpoints(paths.sessions, () => session, warn);
  const outputStyle = new OutputStyleChoice({ zotHome: paths.home, configFile: paths.config, warn,
    picked: config.outputStyle ?? (typeof saved[OUTPUT_STYLE_KEY] === "string" ? saved[OUTPUT_STYLE_KEY] : undefined) });
  const subagentOptions = { ...subagentOptionsFromEnv(env, warn), ...io.subagents };
  // A run that asks no model itself (zot mcp serve) offers `agent` only when its children could
  // reach one: a key for the provider, or a base URL (a local server needs no key).
  const modelReachable = !io.withoutModel || settings.baseUrl !== undefined || !needsApiKey(settings.provider)
    || resolveApiKey({ provider: settings.provider, flag: config.apiKey, env, authFile: paths.auth }) !== undefined;
  const agents: SubagentSupervisor | undefined = modelReachable && (subagentOptions.depth ?? 0) < (subagentOptions.maxDepth ?? DEFAULT_MAX_SUBAGENT_DEPTH)
    ? new SubagentSupervisor({
      ...subagentOptions, home: paths.home, env, config, warn,
      parent: (): ParentView => ({ bus: session.bus, sessionId: session.sessionId, sessionFile: session.state.session_file,
        cwd: session.cwd, ...session.info(), jail: session.jail, toolNames: [...session.tools().keys()] }),
      onChildUsage: (sessionId, usage) => session.addChildUsage(sessionId, usage),
    })
    : undefined;
  // The provider in use now (/model provider/… replaces it).
  let live = providerFor(settings, io.warmProvider);
  const session: AgentSession = new AgentSession({
    cwd,
    provider: live,
    model: settings.model,
    tools: { ...(config.tools ? { only: config.tools } : {}), ...(agents ? { agent: agents } : {}), ...(io.files ? { files: io.files } : {}),
      // Plugins' bin/ folders: the host starts after the session, so they are read at each command.
      bash: { pathDirs: () => host.pluginBins(), ...(io.terminal ? { terminal: io.terminal } : {}) } },
    ...(agents ? { pendingNotes: (id: string) => agents.takeFinished(id) } : {}),
    skills: () => skills.list,
    prompt: {
      systemFile: paths.systemPrompt,
      systemPrompt: config.systemPrompt,
      append: config.appendSystemPrompt,
      outputStyle: () => outputStyle.section(),
      ...(config.contextFiles ? { contextFiles: { userDir: paths.home } } : {}),
    },
    maxSteps: config.maxSteps,
    reasoning: config.reasoning,
    yolo: config.yolo,
    ...(frontend.confirm ? { confirmer: confirmerOf(frontend) } : {}),
    jail: config.jail,
    session: opened,
    interactiveTools: io.interactive ?? false,
    // The host is attached below; a provider only refuses a tool during a run, after that.
    onToolDropped: (tool, error) => host.toolRefused(tool.name, error),
    // A subagent's changes are its parent's tool call's: the parent's checkpoint covers them.
    ...((subagentOptions.depth ?? 0) === 0 ? { toolExecution: checkpoints.observer() } : {}),
    onWarning: warn,
  });
  if (config.rememberModel && (config.provider || config.model)) await rememberModel();
  frontend.showEvents(session.bus, { sessionId: opened.id, cwd, provider: settings.provider, model: settings.model });
  session.reportRepairs();

  const hostTimeouts = timeoutsFromEnv(env[TIMEOUTS_ENV]);
  for (const problem of hostTimeouts.problems) warn(problem);
  const host = new ExtensionHost({
    cwd,
    paths,
    explicit: config.extensions.paths.map((p) => resolve(p)),
    discover: config.extensions.discover,
    sandbox: { enabled: config.extensions.sandbox },
    trust: recordedTrust(paths, { trustProject: config.extensions.trustProject,
      ...(frontend.askTrust ? { ask: (pending) => frontend.askTrust!(pending) } : {}) }),
    agent: hostAgentOf(session),
    interactive: io.interactive ?? false,
    builtinCommands: BUILTIN_COMMANDS.map((c) => c.name),
    ...(frontend.submit ? { onSubmit: (extension: string, text: string) => frontend.submit!(extension, text) } : {}),
    limits: { toolOutputBytes: toolOutputLimit(env, saved) },
    timeouts: hostTimeouts.timeouts,
    drivers: extensionDrivers,
  });
  const offered = config.extensionTools ? new Set(config.extensionTools) : undefined;
  session.attachExtensions({ hooks: host, tools: () => (offered ? host.tools().filter((t) => offered.has(t.name)) : host.tools()) });
  await host.start();
  await skills.refresh(host, cwd);
  await agents?.refreshTypes(cwd, host.agentInputs());
  outputStyle.refresh(host.outputStyleInputs());

  let branching: Promise<SessionBranching> | undefined;
  const runtime: Runtime = {
    get cwd() {
      return session.cwd;
    },
    paths,
    outputStyle,
    checkpoints,
    env,
    settings,
    bus: session.bus,
    host,
    session,
    ...(agents ? { agents } : {}),
    prompt: (text, options) => session.prompt(text, options),
    abort: (options) => session.abort(options),
    isCommandLine: (line) => isCommandLine(runtime, line),
    slash: (line, options) => runSlash(runtime, line, options),
    commands: () => host.commands(),
    runExtensionCommand: (name, args) => host.invokeCommand(name, args),
    extensionReports: () => host.reports(),
    panels: {
      open: () => host.openPanels(),
      key: (panelId, key, text) => host.panelKey(panelId, key, text),
      close: (panelId) => host.closePanel(panelId),
    },
    async setModel(spec, { remember = true } = {}) {
      const { provider: switchTo, model } = parseModelSpec(spec, session.state.provider);
      if (switchTo) {
        live = providerFor({ ...settings, provider: switchTo, model });
        session.setModel(model, live);
      }
      else session.setModel(model);
      if (remember) await rememberModel();
    },
    async switchSession(target = {}) {
      const opened = openSession(target.id !== undefined ? { kind: "resume", id: target.id } : fresh(), sessionsOf(session.cwd));
      await session.switchSession(opened);
      return opened.id;
    },
    async changeCwd(path) {
      const next = resolveWorkdir(path, session.cwd);
      const opened = openSession(fresh(), sessionsOf(next));
      await session.changeCwd(next, opened, async () => {
        await host.reload({ cwd: next });
        await skills.refresh(host, next);
        await agents?.refreshTypes(next, host.agentInputs());
        outputStyle.refresh(host.outputStyleInputs());
      });
      return { cwd: next, sessionId: opened.id };
    },
    needsLogin() {
      return live.needsLogin?.() ?? false;
    },
    recentSessions() {
      return listSessions({ sessionsDir: paths.sessions, cwd: session.cwd });
    },
    // Loaded on first use: a one-shot run never forks, exports or lists the family tree.
    branches: () => (branching ??= import("./session-branches.ts").then(({ sessionBranching }) =>
      sessionBranching({ session, sessionsDir: paths.sessions, env, givenKeys: [config.apiKey], switchTo: (id) => runtime.switchSession({ id }) }))),
    async reloadExtensions() {
      await host.reload();
      await skills.refresh(host, session.cwd);
      await agents?.refreshTypes(session.cwd, host.agentInputs());
      outputStyle.refresh(host.outputStyleInputs());
      session.resetSystemPrompt();
    },
    async close({ abort } = {}) {
      await session.close({ abort });
      // Running subagents get a moment to finish, then are stopped, before extensions close.
      await agents?.shutdown(io.subagentsGraceMs ?? 2_000);
      await host.shutdown();
    },
  };
  return runtime;
}

/** The frontend's confirm, called as its method (a frontend may be a class instance). */
function confirmerOf(frontend: Frontend): Confirmer {
  return (request) => frontend.confirm!(request);
}

/** The provider of a run that only runs tools: asking it for a reply is a mistake, said plainly. */
function modelless(name: string): Provider {
  return {
    name,
    // eslint-disable-next-line require-yield
    async *stream() {
      throw new Error("this run has no model: it only runs tools (zot mcp serve)");
    },
  };
}

/** Passes each distinct message on once: SDKs repeat their warnings on every request. */
function onceEach(sink: (message: string) => void): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (seen.has(message)) return;
    seen.add(message);
    sink(message);
  };
}

/** The skills a run offers: project, user (when asked) and extension skills, re-read on reload. */
class SkillCatalog {
  list: Skill[] = [];

  constructor(private readonly config: RunConfig, private readonly zotHome: string,
    private readonly warn: (message: string) => void) {}

  /** Re-reads the skills of project `cwd` (as far as the user trusted them), the user's and the running extensions'. */
  async refresh(host: ExtensionHost, cwd: string): Promise<void> {
    if (!this.config.skills.enabled) {
      this.list = [];
      return;
    }
    this.list = discoverSkills({ cwd, zotHome: this.zotHome, user: this.config.skills.user, extensions: host.skillInputs(),
      project: await this.projectTrust(cwd), onWarning: this.warn });
  }

  /** What the user trusted of the project's skills; trust.json is read only when the project has some. */
  private async projectTrust(cwd: string): Promise<true | { pinned: Record<string, string> | undefined }> {
    if (this.config.extensions.trustProject || !existsSync(projectSkillsDir(cwd))) return true;
    try {
      return { pinned: (await readTrust({ home: this.zotHome })).projects[projectKey(cwd)]?.skills };
    } catch (err) {
      this.warn(`project skills are not offered: ${(err as Error).message}`);
      return { pinned: undefined };
    }
  }

}
