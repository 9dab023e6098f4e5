// Builds everything one zot process runs on: paths, settings, the provider, the event bus, the
// extension host and the agent session, wired so the host's call_tool goes through the
// session's guards and the session's hooks are the host's interceptors.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { AgentSession } from "../agent/session/agent-session.ts";
import { EventBus } from "../agent/event-bus.ts";
import { openSession, type SessionSelection } from "../agent/session/session-select.ts";
import { discoverSkills } from "../agent/prompt/skills.ts";
import type { Confirmer } from "../agent/loop/permissions.ts";
import type { RootOptions } from "../cli/root-args.ts";
import { UsageError } from "../errors.ts";
import { readConfig, updateConfig } from "../config.ts";
import { ExtensionHost } from "../extensions/host/host.ts";
import { zotPaths, type ZotPaths } from "../paths.ts";
import { createProvider, isProviderName, resolveApiKey } from "../providers/index.ts";
import { unknownToolNames } from "../tools/index.ts";
import type { Skill } from "../tools/skill-file.ts";
import { BUILTIN_COMMANDS } from "./builtin-commands.ts";
import { resolveModelSettings, type ModelSettings } from "./settings.ts";

export interface Runtime {
  cwd: string;
  paths: ZotPaths;
  settings: ModelSettings;
  bus: EventBus;
  host: ExtensionHost;
  session: AgentSession;
  /**
   * /model and rpc set_model: `model` or `provider/model` (which switches provider, with the
   * same credential rules as at start). Saved in config.json as the last choice.
   */
  setModel(spec: string): Promise<void>;
  /** /reload-ext: respawns extensions, re-reads their skills, rebuilds the system prompt. */
  reloadExtensions(): Promise<void>;
  /** Finishes: waits for (or aborts) running work, ends the session, shuts extensions down. */
  close(options?: { abort?: boolean }): Promise<void>;
}

export interface RuntimeOptions {
  env: Record<string, string | undefined>;
  interactive: boolean;
  warn(message: string): void;
  confirmer?: Confirmer;
  /**
   * Called once the event bus exists, before extensions start, so a mode sees their load
   * errors; `info` is what json mode's first `session` line reports.
   */
  onBus?(bus: EventBus, info: { session_id: string; cwd: string; provider: string; model: string }): void;
  /** An extension's `submit` frame (interactive hosts only). */
  onSubmit?(extension: string, text: string): void;
}

function resolveCwd(cwd: string | undefined): string {
  const dir = resolve(cwd ?? process.cwd());
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`--cwd ${dir} is not a directory`);
  return dir;
}

function sessionSelection(options: RootOptions): SessionSelection {
  if (options.noSession) return { kind: "none" };
  if (options.session) return { kind: "path", path: options.session };
  if (options.resume !== undefined) return { kind: "resume", id: options.resume === true ? undefined : options.resume };
  if (options.continue) return { kind: "continue" };
  return { kind: "new" };
}

export async function createRuntime(options: RootOptions, io: RuntimeOptions): Promise<Runtime> {
  const cwd = resolveCwd(options.cwd);
  if (options.tools) {
    const unknown = unknownToolNames(options.tools);
    if (unknown.length > 0) throw new UsageError(`unknown tool ${unknown.join(", ")} in --tools (built-in tools: read, write, edit, bash, skill)`);
  }
  const paths = zotPaths(io.env);
  const config = await readConfig(paths.config, io.warn);
  const settings = resolveModelSettings(options, io.env, config);
  const providerFor = (s: ModelSettings) =>
    createProvider({
      provider: s.provider,
      baseUrl: s.baseUrl,
      apiKey: resolveApiKey({ provider: s.provider, flag: options.apiKey, env: io.env, authFile: paths.auth })?.key,
    });
  const provider = providerFor(settings);
  if (options.provider || options.model) {
    await updateConfig(paths.config, { provider: settings.provider, model: settings.model }).catch((err: Error) =>
      io.warn(`could not save ${paths.config}: ${err.message}`));
  }

  const opened = openSession(sessionSelection(options), {
    sessionsDir: paths.sessions, cwd, provider: settings.provider, model: settings.model,
  });
  const bus = new EventBus({ id: opened.id, cwd });
  io.onBus?.(bus, { session_id: opened.id, cwd, provider: settings.provider, model: settings.model });

  let session: AgentSession | undefined;
  const host = await ExtensionHost.start({
    cwd,
    paths,
    explicit: options.ext.map((p) => resolve(p)),
    discover: !options.noExt,
    bus,
    info: () => ({ provider: session?.state.provider ?? settings.provider, model: session?.state.model ?? settings.model }),
    interactive: io.interactive,
    builtinCommands: BUILTIN_COMMANDS.map((c) => c.name),
    runTool: async (name, args, ctx) => {
      if (!session) return { content: [{ type: "text", text: "zot is still starting" }], is_error: true, status: "failed" };
      const result = await session.runTool(name, args, { originExtension: ctx.originExtension, signal: ctx.signal, parentId: ctx.parentId });
      return { content: result.content, is_error: result.is_error, status: result.status, activate_tools: result.activate_tools };
    },
    onSubmit: io.onSubmit,
  });

  const skills = (): Skill[] =>
    options.noSkill
      ? []
      : discoverSkills({
          cwd,
          zotHome: paths.home,
          user: options.withSkills,
          extensions: host.skillInputs(),
          onWarning: io.warn,
        });
  let skillList = skills();

  session = new AgentSession({
    cwd,
    provider,
    model: settings.model,
    bus,
    hooks: host,
    tools: options.tools ? { only: options.tools } : undefined,
    extraTools: () => host.tools(),
    skills: () => skillList,
    prompt: {
      systemFile: paths.systemPrompt,
      systemPrompt: options.systemPrompt,
      append: options.appendSystemPrompt,
      ...(options.noContextFiles ? {} : { contextFiles: { userDir: paths.home } }),
    },
    maxSteps: options.maxSteps,
    reasoning: options.reasoning,
    yolo: options.yolo,
    confirmer: io.confirmer,
    jail: options.jail,
    session: opened,
    interactiveTools: io.interactive,
    onWarning: io.warn,
  });
  const live = session;

  return {
    cwd,
    paths,
    settings,
    bus,
    host,
    session: live,
    async setModel(spec) {
      const slash = spec.indexOf("/");
      const prefix = spec.slice(0, Math.max(0, slash));
      if (isProviderName(prefix)) {
        const next = { ...settings, provider: prefix, model: spec.slice(slash + 1) };
        live.setModel(next.model, providerFor(next));
      } else {
        live.setModel(spec);
      }
      await updateConfig(paths.config, { provider: live.state.provider, model: live.state.model }).catch((err: Error) =>
        io.warn(`could not save ${paths.config}: ${err.message}`));
    },
    async reloadExtensions() {
      await host.reload();
      skillList = skills();
      live.resetSystemPrompt();
    },
    async close({ abort } = {}) {
      await live.close({ abort });
      await host.shutdown();
    },
  };
}
