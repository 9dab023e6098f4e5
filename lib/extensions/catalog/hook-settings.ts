// Hooks in Claude Code's settings shape, as its settings files, zot's config.json `hooks` key and
// a plugin's hooks/hooks.json hold them:
//   {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…", "timeout": 30, "if": "Bash(git *)"}]}]}
// Read leniently, as Claude Code reads them: an entry zot cannot run (another hook type, an event
// zot has no equivalent for) is a problem named in doctor, and the others still run.
import { isJsonObject } from "../../protocol/json-object.ts";

/** The events zot runs hooks for, in Claude Code's names. */
export const HOOK_EVENTS = [
  "SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
  "Notification", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code events zot has no moment for, and why (doctor and the README say so). */
export const EVENTS_WITHOUT_EQUIVALENT: Record<string, string> = {
  PermissionDenied: "zot's auto mode has no classifier whose denials could be retried",
  StopFailure: "a failed model request ends zot's run with an error the caller already sees",
  Setup: "zot has no --init or maintenance run",
  InstructionsLoaded: "zot reads AGENTS.md once, with the system prompt",
  ConfigChange: "zot reads its settings at start-up",
  CwdChanged: "a working-directory change reloads zot's extensions, hooks included",
  FileChanged: "zot watches no files",
  WorktreeCreate: "zot's subagent worktrees are git worktrees zot makes itself",
  WorktreeRemove: "zot's subagent worktrees are git worktrees zot makes itself",
  TeammateIdle: "zot has no agent teams",
  TaskCreated: "zot has no task list",
  TaskCompleted: "zot has no task list",
  Elicitation: "zot's MCP client does not accept elicitation requests",
  ElicitationResult: "zot's MCP client does not accept elicitation requests",
  UserPromptExpansion: "zot expands slash commands before any hook sees the prompt",
  PostToolBatch: "zot reports each call on its own",
};

/** Claude Code's default timeout of a command hook, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

export interface HookCommand {
  event: HookEvent;
  /** "" matches everything (also "*" and an absent matcher). */
  matcher: string;
  command: string;
  timeoutS: number;
  /** Permission-rule filter (`Bash(git *)`): tool events only. */
  if?: string;
  /** Runs in the background: its output decides nothing; its context reaches the model at the next prompt or tool result. */
  async: boolean;
  /** `asyncRewake`: in the background, and an exit 2 brings its stderr to the model (after `message`). */
  rewake?: { message?: string };
}

export interface ParsedHooks {
  hooks: HookCommand[];
  problems: string[];
}

const isHookEvent = (name: string): name is HookEvent => (HOOK_EVENTS as readonly string[]).includes(name);

/** The command hooks of a `hooks` object, and what could not be used (each naming `where`). */
export function parseHooks(value: unknown, where: string): ParsedHooks {
  const hooks: HookCommand[] = [];
  const problems: string[] = [];
  if (!isJsonObject(value)) return { hooks, problems: [`${where}: hooks must be an object of events`] };
  for (const [event, groups] of Object.entries(value)) {
    if (!isHookEvent(event)) {
      const why = EVENTS_WITHOUT_EQUIVALENT[event];
      problems.push(`${where}: ${event} hooks do not run in zot (${why ?? "not a hook event zot knows"})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${where}: hooks.${event} must be an array of {matcher, hooks}`);
      continue;
    }
    groups.forEach((group, g) => {
      const at = `${where}: hooks.${event}[${g}]`;
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) return void problems.push(`${at} must be {"matcher": …, "hooks": [...]}`);
      if (group.matcher !== undefined && typeof group.matcher !== "string") return void problems.push(`${at}.matcher must be a string`);
      const matcher = group.matcher === undefined || group.matcher === "*" ? "" : group.matcher;
      group.hooks.forEach((hook, h) => {
        const hat = `${at}.hooks[${h}]`;
        const problem = hookProblem(hook);
        if (problem) return void problems.push(`${hat}: ${problem}`);
        const entry = hook as Record<string, unknown>;
        hooks.push({
          event, matcher, command: entry.command as string,
          timeoutS: typeof entry.timeout === "number" ? entry.timeout : DEFAULT_HOOK_TIMEOUT_S,
          ...(typeof entry.if === "string" && entry.if !== "" ? { if: entry.if } : {}),
          async: entry.async === true || entry.asyncRewake === true,
          ...(entry.asyncRewake === true ? { rewake: typeof entry.rewakeMessage === "string" ? { message: entry.rewakeMessage } : {} } : {}),
        });
      });
    });
  }
  return { hooks, problems };
}

function hookProblem(hook: unknown): string | undefined {
  if (!isJsonObject(hook)) return "must be an object";
  if (hook.type !== "command") {
    return typeof hook.type === "string"
      ? `"${hook.type}" hooks are not supported (zot runs "command" hooks; a model-judged hook would spend the user's model budget behind their back)`
      : "type must be \"command\"";
  }
  if (typeof hook.command !== "string" || hook.command.trim() === "") return "command must be a non-empty string";
  if (hook.timeout !== undefined && (typeof hook.timeout !== "number" || !(hook.timeout > 0))) return "timeout must be a positive number of seconds";
  if (hook.if !== undefined && typeof hook.if !== "string") return "if must be a permission rule such as \"Bash(git *)\"";
  return undefined;
}
