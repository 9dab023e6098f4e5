// Flags of `zot mcp serve`. Parsed by hand, strictly: -e/--ext repeats, and an unknown flag or a
// missing value is a usage error (exit 2) before anything starts.
import type { RunConfigInput } from "../../app/run-config.ts";
import { UsageError } from "../../errors.ts";
import type { ServeToolSelection } from "../../mcp/serve-tools.ts";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";

export const SERVE_USAGE = `Usage: zot mcp serve [options]
(stdout carries only MCP messages)

Options:
  --cwd PATH              working directory of the tools (default: the current directory)
  --tools a,b             offer only these tools (built-in or extension tool names)
  --no-builtins           offer no built-in tools (read, write, edit, bash, skill, agent)
  --no-extension-tools    offer no extension tools (extensions still load, guard and observe)
  -e, --ext PATH          load an extension for this run (repeatable)
  --no-ext                skip extension discovery (-e extensions still load)
  --jail                  confine the file tools to --cwd
  --no-yolo               confirm each call through the client (MCP elicitation); a client
                          that cannot elicit gets every call refused
  --with-skills           also offer the user's own skills to the skill tool
  --no-skill              no skills, no skill tool
  -h, --help              show this help
`;

export interface ServeArgs {
  help: boolean;
  config: RunConfigInput;
  selection: ServeToolSelection;
}

const BOOLEANS = new Set(["--no-builtins", "--no-extension-tools", "--no-ext", "--jail", "--no-yolo", "--with-skills", "--no-skill", "--help", "-h"]);
const VALUED = new Set(["--cwd", "--tools", "--ext", "-e"]);

export function parseServeArgs(argv: string[]): ServeArgs {
  const flags = new Set<string>();
  const values: Record<string, string | undefined> = {};
  const ext: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (BOOLEANS.has(flag)) {
      if (eq > 0) throw new UsageError(`${flag} takes no value`);
      flags.add(flag);
    } else if (VALUED.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
      if (flag === "-e" || flag === "--ext") ext.push(value);
      else values[flag] = value;
    } else if (arg.startsWith("-")) {
      throw new UsageError(`unknown option ${flag} (see zot mcp serve --help)`);
    } else {
      throw new UsageError(`unexpected argument "${arg}" (see zot mcp serve --help)`);
    }
  }
  const only = values["--tools"]?.split(",").map((t) => t.trim()).filter(Boolean);
  if (only && only.length === 0) throw new UsageError("--tools needs at least one tool name");
  const builtins = !flags.has("--no-builtins");
  const extensionTools = !flags.has("--no-extension-tools");
  if (!builtins && !extensionTools) throw new UsageError("--no-builtins with --no-extension-tools leaves no tool to offer");
  const isBuiltin = (name: string) => (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
  return {
    help: flags.has("--help") || flags.has("-h"),
    config: {
      ...(values["--cwd"] !== undefined ? { cwd: values["--cwd"] } : {}),
      // Only the built-ins that will be offered are built.
      ...(!builtins ? { tools: [] } : only ? { tools: only.filter(isBuiltin) } : {}),
      extensions: { paths: ext, discover: !flags.has("--no-ext") },
      skills: { enabled: !flags.has("--no-skill"), user: flags.has("--with-skills") },
      yolo: !flags.has("--no-yolo"),
      jail: flags.has("--jail"),
      // The served tools need no system prompt: AGENTS.md and the like are not read.
      contextFiles: false,
    },
    selection: { ...(only ? { only } : {}), builtins, extensionTools },
  };
}
