// The runtime as the modes and slash commands see it: one run's commands (prompt, slash,
// panels, model, session, cwd, close) and its state. The extension host stays behind it: a
// mode asks the runtime, never the host. `createRuntime` (runtime.ts) builds one.
import type { EventBus } from "../agent/event-bus.ts";
import type { RunResult } from "../agent/contracts/loop-options.ts";
import type { PromptOptions } from "../agent/session/agent-options.ts";
import type { AgentSession } from "../agent/session/agent-session.ts";
import type { SessionListing } from "../agent/session/session-select.ts";
import type { ExtensionHost, OpenPanel } from "../extensions/host/host.ts";
import type { ExtensionReport } from "../extensions/host/report.ts";
import type { ZotPaths } from "../paths.ts";
import type { CommandResponseFrame } from "../protocol/index.ts";
import type { SubagentSupervisor } from "./subagents/supervisor.ts";
import type { SlashOptions, SlashOutcome } from "./slash-outcome.ts";
import type { SessionBranching } from "./session-branches.ts";
import type { ModelSettings } from "./settings.ts";

/** A command an extension registered, as /help, completion and rpc get_commands list it. */
export interface ExtensionCommand {
  name: string;
  description: string;
  extension: string;
}

/** The extensions' open panels, and the user's keys to the focused one. */
import type { OutputStyleChoice } from "./output-style.ts";
import type { SessionCheckpoints } from "./checkpoints.ts";

export interface RuntimePanels {
  /** Open panels; the last one has focus (the order they opened in). */
  open(): OpenPanel[];
  /** A key for panel `panelId` (`text` for a rune). */
  key(panelId: string, key: string, text?: string): void;
  /** The user closed panel `panelId` (Esc): the extension gets panel_close, the stream ext_panel_close. */
  close(panelId: string): void;
}

export interface Runtime {
  /** The working directory now (/cd and rpc set_cwd change it). */
  readonly cwd: string;
  paths: ZotPaths;
  /** The environment the run reads keys and settings from. */
  env: Record<string, string | undefined>;
  settings: ModelSettings;
  bus: EventBus;
  session: AgentSession;
  /** This conversation's checkpoints (`/rewind`). */
  checkpoints: SessionCheckpoints;
  /** The output style: `/output-style` lists and picks; its text joins the system prompt. */
  outputStyle: OutputStyleChoice;
  /**
   * The extension host, for an embedding program (mod.ts's createZot hands the runtime out).
   * Modes and slash commands use the runtime's own methods instead.
   */
  host: ExtensionHost;
  /** The agent tool's child agents; absent when this run may not delegate (a child at the depth limit). */
  agents?: SubagentSupervisor;

  /** Runs one prompt on the session's queue (behind a running one); resolves when its run ends. */
  prompt(text: string, options?: PromptOptions): Promise<RunResult>;
  /** Cancels the running work; `keepQueued` lets prompts queued behind it run. Returns the withdrawn ids. */
  abort(options?: { keepQueued?: boolean }): string[];
  /**
   * True when `line` runs a slash command: its first word is `/name` and `name` is a built-in or
   * a running extension's command. Any other line, `/bin/sh is missing` included, is a prompt.
   */
  isCommandLine(line: string): boolean;
  /** Runs `/name args`: built-ins first, then extension commands. A prompt action's run is not awaited. */
  slash(line: string, options: SlashOptions): Promise<SlashOutcome>;
  /** The running extensions' commands. */
  commands(): ExtensionCommand[];
  /**
   * Asks the extension that registered command `name` (case-insensitive) to run it; undefined
   * when no running extension has that command (or it is a built-in's name).
   */
  runExtensionCommand(name: string, args: string): Promise<CommandResponseFrame | { error: string } | undefined>;
  /** One report per extension candidate: status, scope, permissions, errors (/ext, rpc get_state, themes). */
  extensionReports(): ExtensionReport[];
  panels: RuntimePanels;
  /**
   * /model and rpc set_model: `model` or `provider/model` (which switches provider, with the
   * same credential rules as at start). Saved in config.json as the last choice unless
   * `remember` is false (a one-shot run's choice, or a model the provider's list does not have).
   */
  setModel(spec: string, options?: { remember?: boolean }): Promise<void>;
  /**
   * /new, /resume ID, rpc new_session and switch_session: the current conversation ends
   * (`session_end` session_switch) and the session continues in a fresh one (no id) or in the
   * saved session `id`. Resolves with the new session id.
   */
  switchSession(target?: { id?: string }): Promise<string>;
  /**
   * /cd PATH and rpc set_cwd: `path` (`~` expands, relative to the current cwd) becomes the
   * working directory. The conversation ends (`session_end` cwd_change); extensions restart so
   * the new project's own apply; tools, skills and the system prompt's context files follow;
   * a fresh conversation starts in that directory's session folder. Throws for a path that is
   * not a directory, before anything changes.
   */
  changeCwd(path: string): Promise<{ cwd: string; sessionId: string }>;
  /** This directory's saved sessions, newest first (for /resume without an id). */
  recentSessions(): SessionListing[];
  /** /fork, /tree, /export, /import and their rpc commands. */
  branches(): Promise<SessionBranching>;
  /** True when the current provider has no API key and its endpoint needs one (the REPL says how to log in). */
  needsLogin(): boolean;
  /** /reload-ext: respawns extensions, re-reads their skills, rebuilds the system prompt. */
  reloadExtensions(): Promise<void>;
  /** Finishes: waits for (or aborts) running work, ends the session, shuts extensions down. */
  close(options?: { abort?: boolean }): Promise<void>;
}
