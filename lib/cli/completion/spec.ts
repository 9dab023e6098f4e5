// What shell completion offers, read from the tables the CLI itself uses: the root flags
// (root-args.ts), the `zot ext` and `zot mcp` subcommands and their flags, the providers, modes
// and known models. The shell scripts (bash.ts, zsh.ts, fish.ts) only render this.
import type { ArgsDef } from "citty";
import { listModels } from "../../providers/index.ts";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";
import { TEMPLATES } from "../../extensions/authoring/templates/index.ts";
import { ROOT_COMMANDS } from "../commands.ts";
import { EXT_COMMANDS, summaryOf } from "../ext/ext-command.ts";
import { LOGIN_ARGS } from "../login.ts";
import { MCP_COMMANDS } from "../mcp/mcp-command.ts";
import { MODES, PROVIDER_NAMES, REASONING_LEVELS } from "../flag-values.ts";
import { ROOT_ARGS } from "../root-args.ts";

/** Values a flag takes: a fixed list, file or folder names, or anything (nothing to offer). */
export type ValueKind = { words: string[] } | "file" | "folder" | "any";

export interface FlagSpec {
  /** `--name`, then its aliases (`-e`). */
  names: string[];
  description: string;
  /** Absent for a flag that takes no value. */
  value?: ValueKind;
}

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  /** What the positional arguments are: subcommands, installed extensions, files, or free text. */
  operands: { commands: CommandSpec[] } | "extensions" | "file" | "folder" | { words: string[] } | "none";
}

/** Shells `zot completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** The `zot ext` commands whose operand is an installed extension's name. */
const TAKES_EXTENSION = new Set(["remove", "enable", "disable", "trust", "logs", "update"]);
const TAKES_FILE = new Set(["install", "test"]);

function valueOf(flag: string, hint: string | undefined): ValueKind {
  switch (flag) {
    case "provider": return { words: [...PROVIDER_NAMES] };
    case "mode": return { words: [...MODES] };
    case "reasoning": return { words: [...REASONING_LEVELS] };
    case "model": return { words: [...new Set(listModels().map((m) => m.id))] };
    case "lang": return { words: Object.keys(TEMPLATES) };
    case "tools": return { words: [...BUILTIN_TOOL_NAMES] };
    case "cwd": return "folder";
    case "ext": case "session": return /path/i.test(hint ?? "") ? "file" : "any";
    default: return "any";
  }
}

export function flagsOf(args: ArgsDef | undefined): FlagSpec[] {
  const flags: FlagSpec[] = [];
  for (const [name, arg] of Object.entries(args ?? {}) as Array<[string, { type: string; alias?: string | string[]; valueHint?: string; description?: string }]>) {
    if (arg.type === "positional") continue;
    const aliases = arg.alias === undefined ? [] : Array.isArray(arg.alias) ? arg.alias : [arg.alias];
    flags.push({
      names: [`--${name}`, ...aliases.map((a) => (a.length === 1 ? `-${a}` : `--${a}`))],
      description: arg.description ?? "",
      ...(arg.type === "string" || arg.type === "enum" ? { value: valueOf(name, arg.valueHint) } : {}),
    });
  }
  return flags;
}

const help: FlagSpec = { names: ["--help", "-h"], description: "show help" };
const withHelp = (flags: FlagSpec[]) => (flags.some((f) => f.names.includes("--help")) ? flags : [...flags, help]);

export function completionSpec(): CommandSpec {
  const ext: CommandSpec[] = Object.entries(EXT_COMMANDS).map(([name, cmd]) => ({
    name,
    description: summaryOf((cmd.meta as { description?: string } | undefined)?.description),
    flags: withHelp(flagsOf(cmd.args as ArgsDef)),
    operands: TAKES_EXTENSION.has(name) ? "extensions" : TAKES_FILE.has(name) ? "file" : "none",
  }));
  const mcp: CommandSpec[] = Object.entries(MCP_COMMANDS).map(([name, cmd]) => ({
    name, description: cmd.summary, flags: withHelp(flagsOf(cmd.usage.args as ArgsDef)), operands: "none",
  }));
  const sub: Record<string, CommandSpec["operands"]> = {
    ext: { commands: ext },
    mcp: { commands: mcp },
    agents: { commands: [
      { name: "list", description: "this project's agents", flags: [], operands: "none" },
      { name: "prune", description: "remove finished agents' worktrees", operands: "none",
        flags: [{ names: ["--force"], description: "also with uncommitted changes" }, { names: ["--all"], description: "every project's" }] },
    ] },
    sessions: { commands: [
      { name: "list", description: "this project's sessions", flags: [], operands: "none" },
      { name: "show", description: "print a conversation", flags: [], operands: "none" },
      { name: "rm", description: "remove a session", flags: [], operands: "none" },
      { name: "tree", description: "the branches /fork made", flags: [], operands: "none" },
      { name: "export", description: "write a .zotsession file", flags: [], operands: "none" },
      { name: "import", description: "add an exported session", flags: [], operands: "file" },
    ] },
    completion: { words: [...SHELLS] },
    logout: { words: [...PROVIDER_NAMES] },
  };
  return {
    name: "zot",
    description: "a coding agent",
    flags: flagsOf(ROOT_ARGS),
        // `zot rpc` and `zot acp` take the root flags (they are --mode rpc and --mode acp).
    operands: { commands: ROOT_COMMANDS.map((c) => ({ name: c.name, description: c.summary,
      flags: c.name === "rpc" || c.name === "acp" ? flagsOf(ROOT_ARGS) : c.name === "login" ? withHelp(flagsOf(LOGIN_ARGS)) : [help],
      operands: sub[c.name] ?? "none" })) },
  };
}
