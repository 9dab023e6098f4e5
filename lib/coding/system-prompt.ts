// System prompt assembly, before extensions see it: the base (built-in, `$ZOT_HOME/SYSTEM.md`
// or `--system-prompt`), then every `--append-system-prompt` and the picked output style, then the context files section
// (AGENTS.md/CLAUDE.md), then the skills manifest. Context files come after the user's own
// prompt text so `--system-prompt` replaces only the built-in text, never project instructions;
// the skills manifest stays last as a catalogue the model consults on demand. The
// before_agent_start chain runs on the result (see lib/agent/session/prompt-preparer.ts).
import { readFileSync } from "node:fs";
import { contextFilesSection, findContextFiles, type ContextFile, type ContextFileSearch } from "./context-files.ts";
import { skillsManifest } from "./skills.ts";
import type { Skill } from "../tools/skill-file.ts";
import type { ToolSpec } from "../providers/types.ts";

export interface SystemPromptOptions {
  /** Path of `$ZOT_HOME/SYSTEM.md`; its contents (when it exists) replace the built-in prompt. */
  systemFile?: string;
  /** `--system-prompt`: replaces the built-in prompt and SYSTEM.md. */
  systemPrompt?: string;
  /** `--append-system-prompt`, in flag order. */
  append?: string[];
  /** The picked output style's section (read at each rebuild), after the appended text. */
  outputStyle?: () => string | undefined;
  /**
   * Read AGENTS.md/CLAUDE.md context files from the cwd up to the git root (and `userDir`) at
   * each prompt rebuild. Absent reads none, so an embedded session only sees files it asks for.
   */
  contextFiles?: ContextFileSearch;
  /** Overrides the manifest derived from the skills. */
  skillsManifest?: string;
}

export interface SystemPromptSources {
  cwd: string;
  /** Tools the model can call when the prompt is built (named in the built-in prompt). */
  tools: readonly Pick<ToolSpec, "name" | "description">[];
  /** Contents of `$ZOT_HOME/SYSTEM.md`, when that file exists: replaces the built-in prompt. */
  systemFile?: string;
  /** `--system-prompt`: replaces the built-in prompt and SYSTEM.md. */
  systemPrompt?: string;
  /** `--append-system-prompt`, in flag order. */
  append?: readonly string[];
  /** Context files in prompt order (see context-files.ts). */
  contextFiles?: readonly ContextFile[];
  /** The skills manifest text (empty when there are no skills). */
  skillsManifest?: string;
  /** Today's date for the built-in prompt (injectable for tests). */
  now?: Date;
}

export function assembleSystemPrompt(sources: SystemPromptSources): string {
  const base = sources.systemPrompt ?? sources.systemFile ?? builtinSystemPrompt(sources);
  const parts = [base, ...(sources.append ?? []), contextFilesSection(sources.contextFiles ?? [])];
  if (sources.skillsManifest?.trim()) parts.push(sources.skillsManifest);
  return parts.filter((part) => part !== "").join("\n\n");
}

/**
 * The base prompt from the CLI's prompt options. SYSTEM.md and the context files are read now,
 * so edits apply on the next rebuild; `warn` hears about context files that cannot be read.
 */
export function basePromptFrom(
  options: SystemPromptOptions,
  context: Pick<SystemPromptSources, "cwd" | "tools" | "now"> & { skillsManifest: string; warn?: (message: string) => void },
): string {
  const { warn, ...sources } = context;
  const contextFiles = options.contextFiles
    ? findContextFiles({ ...options.contextFiles, cwd: context.cwd, ...(warn ? { onWarning: warn } : {}) })
    : [];
  return assembleSystemPrompt({
    ...sources,
    contextFiles,
    ...(options.systemFile ? { systemFile: readSystemFile(options.systemFile) } : {}),
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    append: [...(options.append ?? []), ...[options.outputStyle?.()].filter((s): s is string => s !== undefined)],
    skillsManifest: options.skillsManifest ?? context.skillsManifest,
  });
}

/** `SYSTEM.md`'s contents, or undefined when it does not exist or cannot be read. */
export function readSystemFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export function builtinSystemPrompt({ cwd, tools, now = new Date() }: Pick<SystemPromptSources, "cwd" | "tools" | "now">): string {
  const toolLines = tools.length
    ? tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n")
    : "(none: answer from your own knowledge and the conversation)";
  return [
    "You are zot, a coding agent working in the user's project from their terminal.",
    "You help by reading and changing files and running commands with the tools below.",
    "",
    "Available tools:",
    toolLines,
    "",
    "Guidelines:",
    "- Read files before you change them; make the smallest change that solves the task.",
    "- Prefer `edit` for changes to existing files and `write` for new files.",
    "- Use `bash` for searching (rg, grep, find), building and testing; report what you ran.",
    "- When a tool reports an error, read it and fix the call instead of repeating it.",
    "- Be concise. Show file paths relative to the working directory.",
    "",
    `Working directory: ${cwd}`,
    `Platform: ${process.platform}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
  ].join("\n");
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/**
 * A session's base prompt: its tools, its context files, and the skills manifest, which only
 * helps when the model has the skill tool to load a skill with.
 */
export function sessionBasePrompt(
  options: SystemPromptOptions,
  context: { cwd: string; tools: SystemPromptSources["tools"]; skills?: Skill[] | (() => Skill[]); warn?: (message: string) => void },
): string {
  const { skills, ...rest } = context;
  const list = typeof skills === "function" ? skills() : (skills ?? []);
  const manifest = context.tools.some((t) => t.name === "skill") ? skillsManifest(list) : "";
  return basePromptFrom(options, { ...rest, skillsManifest: manifest });
}
