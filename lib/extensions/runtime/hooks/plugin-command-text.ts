// What a Markdown command (a plugin's `commands/*.md`) sends to the model, as Claude Code builds
// it: `$ARGUMENTS`, `$1`… and `${CLAUDE_PLUGIN_ROOT}` filled in, then each `` !`command` `` and
// each ```` ```! ```` block run with bash before the prompt is sent, its output in its place. A
// command runs only when the frontmatter's `allowed-tools` permits it (`Bash(git add:*)`, …) or
// it is one of the read-only commands Claude Code runs without asking (git status, git diff, …);
// otherwise nothing is sent and the user is told which command was refused.
import { readFile } from "node:fs/promises";
import { parseFrontmatter } from "../../../tools/skill-file.ts";
import { permissionRuleMatches } from "./hook-matcher.ts";

export interface CommandContext {
  root: string;
  cwd: string;
  /** Runs one shell command (in the project, as the plugin's hooks run); resolves with its output. */
  run(command: string): Promise<{ output: string; ok: boolean }>;
}

/** Read-only commands that need no allowed-tools entry (as Claude Code's permission checker lets them run). */
const READ_ONLY = /^(git (status|diff|log|show|branch|rev-parse|remote|config --get)|ls|pwd|date|whoami|cat|head|tail|wc)(\s|$)/;

/** `allowed-tools` as a list: a YAML list (`["A", "B"]`) or a comma-separated line. */
export function allowedTools(value: string | undefined): string[] {
  if (!value) return [];
  const text = value.trim();
  if (text.startsWith("[")) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list)) return list.filter((t): t is string => typeof t === "string");
    } catch {
      // not JSON: read it as a plain list below
    }
  }
  return text.replace(/^\[|\]$/g, "").split(/,(?![^(]*\))/).map((t) => t.trim().replace(/^["']|["']$/g, "")).filter(Boolean);
}

/** Whether `command` (each part of a `&&`/`||`/`;`/`|` chain) may run under `rules`. */
export function commandPermitted(command: string, rules: readonly string[], cwd: string): boolean {
  if (/`|\$\(/.test(command)) return rules.includes("Bash");
  return chainParts(command).every((part) => READ_ONLY.test(part) || rules.some((rule) => permissionRuleMatches(rule, "Bash", { command: part }, cwd)));
}

const INLINE = /!`([^`\n]+)`/g;
const BLOCK = /^```!\s*\n([\s\S]*?)\n```\s*$/gm;

/**
 * Whether a model's call is one of those a command's `allowed-tools` pre-approves while its prompt
 * runs: a Bash chain only when a rule covers every part of it, and never one with `$(…)`.
 */
export function callPreApproved(rules: readonly string[], toolName: string, toolInput: Record<string, unknown>, cwd: string): boolean {
  if (toolName !== "Bash") return rules.some((rule) => permissionRuleMatches(rule, toolName, toolInput, cwd));
  const command = typeof toolInput.command === "string" ? toolInput.command : "";
  return command.trim() !== "" && !/`|\$\(/.test(command)
    && chainParts(command).every((part) => rules.some((rule) => permissionRuleMatches(rule, "Bash", { command: part }, cwd)));
}

/** The commands of a `&&`, `||`, `;` or `|` chain, without the quotes around words. */
function chainParts(command: string): string[] {
  return command.split(/&&|\|\||;|\|/).map((part) => part.trim().replace(/"([^"]*)"/g, "$1").replace(/'([^']*)'/g, "$1")).filter(Boolean);
}

/** The prompt a command sends, and the calls its `allowed-tools` pre-approves (Claude Code's permission rules). */
export interface ExpandedCommand {
  prompt: string;
  allowed: string[];
  /** The frontmatter's `model`, as written. */
  model?: string;
}

export async function expandPluginCommand(file: string, args: string, where: CommandContext): Promise<ExpandedCommand> {
  const { fields, body } = parseFrontmatter(await readFile(file, "utf8"));
  const words = args.trim() === "" ? [] : args.trim().split(/\s+/);
  const fill = (text: string) => text.replaceAll("${CLAUDE_PLUGIN_ROOT}", where.root)
    .replaceAll("$ARGUMENTS", args.trim()).replace(/\$(\d)/g, (_, n: string) => words[Number(n) - 1] ?? "");
  const text = fill(body);
  const rules = allowedTools(fields["allowed-tools"]).map((rule) => rule.replaceAll("${CLAUDE_PLUGIN_ROOT}", where.root));
  const commands = [...text.matchAll(BLOCK)].map((m) => m[1]!.trim()).concat([...text.matchAll(INLINE)].map((m) => m[1]!.trim()));
  const refused = commands.find((command) => !commandPermitted(command, rules, where.cwd));
  if (refused !== undefined) {
    throw new Error(`\`${refused}\` is not permitted by the command's allowed-tools (${rules.join(", ") || "none"}); nothing was sent`);
  }
  const outputs = new Map<string, string>();
  for (const command of new Set(commands)) {
    const { output } = await where.run(command);
    outputs.set(command, output.trimEnd());
  }
  const prompt = text
    .replace(BLOCK, (_, command: string) => outputs.get(command.trim()) ?? "")
    .replace(INLINE, (_, command: string) => outputs.get(command.trim()) ?? "")
    .trim();
  return { prompt, allowed: rules, ...(fields.model?.trim() ? { model: fields.model.trim() } : {}) };
}
