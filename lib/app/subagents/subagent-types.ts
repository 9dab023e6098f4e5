// Named agent types: Markdown files with front matter (`name`, `description`, `tools`, `model`)
// whose body is the child's instructions. The user's live in `$ZOT_HOME/agents/`, a project's in
// `./.zot/agents/`; a project's file is offered only while the project is trusted with that very
// file (its sha256 pinned by `zot ext trust --project`) or with --trust-project, since a cloned
// repository could otherwise hand the model a type whose prompt and tools it wrote.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontmatter } from "../../tools/skill-file.ts";
import { PROJECT_TRUST_HINT } from "../../extensions/catalog/trust/gate.ts";
import { sha256Hex } from "../../lazy-node.ts";

export interface SubagentType {
  name: string;
  description: string;
  /** The tools a child of this type may use (built-in, extension and MCP names); absent: the parent's. */
  tools?: string[];
  model?: string;
  /** The file's body: instructions added to the child's system prompt. */
  instructions: string;
  source: "user" | "project" | "plugin";
  file: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A project's agent type files, as `zot ext trust --project` pins them: file name → sha256. */
export type SubagentTypeFileHashes = Record<string, string>;

export function subagentTypeFileHash(text: string): string {
  return sha256Hex(text);
}

export const projectAgentsDir = (cwd: string) => join(cwd, ".zot", "agents");
export const userAgentsDir = (home: string) => join(home, "agents");

/** The `.md` files in `dir` with their text (none when it does not exist). */
export function subagentTypeFiles(dir: string): Array<{ file: string; text: string }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    try {
      return [{ file, text: readFileSync(file, "utf8") }];
    } catch {
      return [];
    }
  });
}

/** The type in `text`, or what is wrong with it. */
export function parseSubagentType(file: string, text: string, source: SubagentType["source"]): SubagentType | string {
  const { fields, body } = parseFrontmatter(text);
  const name = fields.name ?? basename(file, ".md");
  if (!NAME.test(name)) return `its name "${name}" must be lowercase letters, digits, - or _ (at most 64)`;
  const description = fields.description?.trim();
  if (!description) return "it needs a description in its front matter";
  const tools = fields.tools?.split(/[\s,]+/).filter(Boolean);
  return {
    name, description, ...(tools && tools.length > 0 ? { tools } : {}), ...(fields.model ? { model: fields.model.trim() } : {}),
    instructions: body.trim(), source, file,
  };
}

export interface SubagentTypeSources {
  home: string;
  cwd: string;
  /** The project's pinned files; undefined: the project is not trusted. */
  trustedProjectFiles?: SubagentTypeFileHashes;
  /** --trust-project: the project's files are offered this run without a record. */
  trustProject?: boolean;
  /** The agent folders of the plugins the run uses (their trust is the plugin's). */
  plugins?: ReadonlyArray<{ dir: string; plugin: string }>;
  warn(message: string): void;
}

/** Claude Code's tool names in a plugin agent's `tools`, as zot's; tools zot has no equivalent of are left out. */
const CLAUDE_TOOLS: Record<string, string> = {
  Bash: "bash", Read: "read", Write: "write", Edit: "edit", MultiEdit: "edit", Glob: "glob", Grep: "grep",
  Task: "agent", Agent: "agent", Skill: "skill",
};

/** Claude Code's model aliases: a plugin agent that names one runs on the parent's model. */
const CLAUDE_MODEL_ALIASES = new Set(["inherit", "sonnet", "opus", "haiku"]);

/**
 * A plugin agent in zot's terms: its `tools` in zot's names (Read → read, …) without those zot
 * has no equivalent of, and a Claude Code model alias left to the parent's model.
 */
function fromClaudeAgent(type: SubagentType): SubagentType {
  const { tools: named, model, ...rest } = type;
  const tools = [...new Set((named ?? []).map((t) => CLAUDE_TOOLS[t] ?? (Object.values(CLAUDE_TOOLS).includes(t) ? t : undefined))
    .filter((t): t is string => t !== undefined))];
  return { ...rest, ...(named ? { tools } : {}), ...(model && !CLAUDE_MODEL_ALIASES.has(model) ? { model } : {}) };
}

/** The types on offer: plugins', the user's, then the project's trusted ones (a later source wins by name). */
export function loadSubagentTypes(sources: SubagentTypeSources): SubagentType[] {
  const types = new Map<string, SubagentType>();
  const add = (file: string, text: string, source: SubagentType["source"]) => {
    const parsed = parseSubagentType(file, text, source);
    if (typeof parsed === "string") sources.warn(`agent type ${file} is skipped: ${parsed}`);
    else types.set(parsed.name, parsed);
  };
  for (const { dir, plugin } of sources.plugins ?? []) {
    for (const { file, text } of subagentTypeFiles(dir)) {
      const parsed = parseSubagentType(file, text, "plugin");
      if (typeof parsed === "string") sources.warn(`agent type ${file} of plugin ${plugin} is skipped: ${parsed}`);
      else types.set(parsed.name, fromClaudeAgent(parsed));
    }
  }
  for (const { file, text } of subagentTypeFiles(userAgentsDir(sources.home))) add(file, text, "user");
  for (const { file, text } of subagentTypeFiles(projectAgentsDir(sources.cwd))) {
    const why = sources.trustProject ? undefined : projectFileDistrust(basename(file), text, sources.trustedProjectFiles);
    if (why) sources.warn(`project agent type ${file} is not offered: ${why}; ${PROJECT_TRUST_HINT}`);
    else add(file, text, "project");
  }
  return [...types.values()];
}

function projectFileDistrust(name: string, text: string, pinned: SubagentTypeFileHashes | undefined): string | undefined {
  if (!pinned) return "this project has not been trusted";
  const hash = pinned[name];
  if (hash === undefined) return "it was added after you trusted this project";
  return hash === subagentTypeFileHash(text) ? undefined : "it changed since you trusted this project";
}

/** The lines the agent tool's description lists the types with. */
export function describeSubagentTypes(types: SubagentType[]): string {
  if (types.length === 0) return "";
  const lines = types.map((t) => `- ${t.name}: ${t.description.replace(/\s+/g, " ")}`);
  return `\n\nAgent types (pass one as \`type\`; the child follows that type's instructions):\n${lines.join("\n")}`;
}
