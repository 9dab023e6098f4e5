// The built-in tool set, bound to one working directory: the factory's `cwd` is what the tools
// use (ToolExecutionContext.cwd is informational). `only` is the `--tools a,b` selection; the
// skill tool exists only when skills are given and there is at least one; the agent tool only
// when a delegate runs the child agents (a child at the depth limit has none).
import type { Skill } from "./skill-file.ts";
import { BUILTIN_TOOL_NAMES } from "../protocol/limits.ts";
import { createAgentTool, type AgentDelegate } from "./agent.ts";
import { createBashTool, type BashToolOptions } from "./bash.ts";
import { createEditTool } from "./edit.ts";
import { createGlobTool } from "./glob.ts";
import { createGrepTool } from "./grep.ts";
import type { JailSetting } from "./jail.ts";
import { createReadTool, type ReadToolOptions } from "./read.ts";
import { createSkillTool } from "./skill.ts";
import type { FileAccess } from "./file-access.ts";
import type { Tool } from "./types.ts";
import { createWriteTool } from "./write.ts";

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export interface BuiltinToolsOptions {
  cwd: string;
  /** Confine file tools to `cwd`; a getter lets `/jail` and `/unjail` toggle it live. */
  jail?: JailSetting;
  /** Skills the skill tool serves (a getter for reloads); no skill tool when absent or empty. */
  skills?: Skill[] | (() => Skill[]);
  /** Runs the agent tool's child agents; no agent tool when absent. */
  agent?: AgentDelegate;
  /** bash's default timeout (120 s when absent). */
  bashTimeoutMs?: number;
  /** Keep only these tools (names from BUILTIN_TOOL_NAMES); unknown names throw. */
  only?: string[];
  /** Home directory for `~` (tests); defaults to the user's. */
  home?: string;
  /** Where read, write and edit read and write file contents (default: the disk). */
  files?: FileAccess;
  /** Finer limits, mostly for tests. */
  read?: Pick<ReadToolOptions, "maxLines" | "maxBytes" | "maxImageBytes" | "maxFileBytes">;
  bash?: Pick<BashToolOptions, "killGraceMs" | "maxLines" | "maxBytes" | "shell" | "env" | "pathDirs" | "terminal">;
}

/** Names in `only` that are not built-in tools (for a usage error before anything runs). */
export function unknownToolNames(only: string[]): string[] {
  return only.filter((n) => !(BUILTIN_TOOL_NAMES as readonly string[]).includes(n));
}

export function createBuiltinTools(options: BuiltinToolsOptions): Tool[] {
  if (options.only) {
    const unknown = unknownToolNames(options.only);
    if (unknown.length > 0) {
      throw new Error(`unknown built-in tool${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; available: ${BUILTIN_TOOL_NAMES.join(", ")}`);
    }
  }
  const wanted = (name: BuiltinToolName) => !options.only || options.only.includes(name);
  const paths = { cwd: options.cwd, jail: options.jail, home: options.home, files: options.files };
  const tools: Tool[] = [];
  if (wanted("read")) tools.push(createReadTool({ ...paths, ...options.read }));
  if (wanted("write")) tools.push(createWriteTool(paths));
  if (wanted("edit")) tools.push(createEditTool(paths));
  if (wanted("bash")) tools.push(createBashTool({ cwd: options.cwd, jail: options.jail, timeoutMs: options.bashTimeoutMs, ...options.bash }));
  if (wanted("glob")) tools.push(createGlobTool({ cwd: options.cwd, jail: options.jail, home: options.home }));
  if (wanted("grep")) tools.push(createGrepTool({ cwd: options.cwd, jail: options.jail, home: options.home }));
  if (wanted("skill") && hasSkills(options.skills)) tools.push(createSkillTool({ skills: options.skills! }));
  if (wanted("agent") && options.agent) tools.push(createAgentTool(options.agent));
  return tools;
}

function hasSkills(skills: BuiltinToolsOptions["skills"]): boolean {
  if (!skills) return false;
  return typeof skills === "function" ? true : skills.length > 0;
}
