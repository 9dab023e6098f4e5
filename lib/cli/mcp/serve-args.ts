// Flags of `zot mcp serve`, declared for citty and checked strictly: an unknown flag or a missing
// value is a usage error (exit 2) before anything starts. -e/--ext repeats, so it is collected
// before citty parses the rest.
import type { ArgsDef } from "citty";
import type { RunConfigInput } from "../../app/run-config.ts";
import type { ServeToolSelection } from "../../modes/mcp-serve/serve-tools.ts";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";
import { checkArgs, parseChecked, takeRepeated, UsageError } from "../args.ts";

export const SERVE_ARGS = {
  cwd: { type: "string", valueHint: "path", description: "Working directory of the tools (default: the current directory)" },
  tools: { type: "string", valueHint: "a,b", description: "Offer only these tools (built-in or extension tool names)" },
  "no-builtins": { type: "boolean", description: "Offer no built-in tools (read, write, edit, bash, skill, agent)" },
  "no-extension-tools": { type: "boolean", description: "Offer no extension tools (extensions still load, guard and observe)" },
  ext: { type: "string", alias: "e", valueHint: "path", description: "Load an extension for this run (repeatable)" },
  "no-ext": { type: "boolean", description: "Skip extension discovery (-e extensions still load)" },
  jail: { type: "boolean", description: "Confine the file tools to --cwd" },
  "no-yolo": { type: "boolean",
    description: "Confirm each call through the client (MCP elicitation); a client that cannot elicit gets every call refused" },
  "with-skills": { type: "boolean", description: "Also offer the user's own skills to the skill tool" },
  "no-skill": { type: "boolean", description: "No skills, no skill tool" },
  help: { type: "boolean", alias: "h", description: "Show this help" },
} as const satisfies ArgsDef;

/** For `--help`: citty renders it from the declared flags. */
export const serveCommand = {
  meta: { name: "serve", description: "Serve zot's tools to an MCP client over stdio (stdout carries only MCP messages)" },
  args: SERVE_ARGS,
};

export interface ServeArgs {
  help: boolean;
  config: RunConfigInput;
  selection: ServeToolSelection;
}

const SEE_HELP = " (see zot mcp serve --help)";

export function parseServeArgs(argv: string[]): ServeArgs {
  let present: Set<string>;
  try {
    present = checkArgs(argv, SERVE_ARGS);
  } catch (err) {
    throw err instanceof UsageError ? new UsageError(`${err.message}${SEE_HELP}`) : err;
  }
  const { values, rest } = takeRepeated(argv, SERVE_ARGS, ["ext"]);
  const ext = values.ext!;
  if (ext.includes("")) throw new UsageError("--ext needs a value");
  const args = parseChecked(rest, SERVE_ARGS, present);
  // citty turns any --no-X into X=false.
  const no = (name: string) => args[name] === false || args[`no-${name}`] === true;
  for (const name of ["cwd", "tools"]) if (args[name] === "") throw new UsageError(`--${name} needs a value`);
  const cwd = args.cwd as string | undefined;
  const only = (args.tools as string | undefined)?.split(",").map((t) => t.trim()).filter(Boolean);
  if (only && only.length === 0) throw new UsageError("--tools needs at least one tool name");
  const builtins = !no("builtins");
  const extensionTools = !no("extension-tools");
  if (!builtins && !extensionTools) throw new UsageError("--no-builtins with --no-extension-tools leaves no tool to offer");
  const isBuiltin = (name: string) => (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
  return {
    help: args.help === true,
    config: {
      ...(cwd !== undefined ? { cwd } : {}),
      // Only the built-ins that will be offered are built.
      ...(!builtins ? { tools: [] } : only ? { tools: only.filter(isBuiltin) } : {}),
      extensions: { paths: ext, discover: !no("ext") },
      skills: { enabled: !no("skill"), user: args["with-skills"] === true },
      yolo: !no("yolo"),
      jail: args.jail === true,
      // The served tools need no system prompt: AGENTS.md and the like are not read.
      contextFiles: false,
    },
    selection: { ...(only ? { only } : {}), builtins, extensionTools },
  };
}
