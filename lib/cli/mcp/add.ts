// `zot mcp add NAME [--project] [--env K=V]… [--no-prefix] -- COMMAND ARGS…` and
// `zot mcp add NAME [--project] --url URL [--header K=V]…`: writes an MCP extension folder. The
// flags are declared for citty and checked strictly; what follows `--` is the server's, verbatim.
import type { ArgsDef } from "citty";
import { addMcpExtension } from "../../extensions/install/mcp-add.ts";
import type { McpServerConfig } from "../../extensions/catalog/manifest-mcp.ts";
import { checkArgs, parseChecked, takeRepeated, UsageError } from "../args.ts";
import { cwdArg, rootsFor } from "../ext/args.ts";
import { printable } from "../../terminal-text.ts";

export const ADD_ARGS = {
  name: { type: "positional", required: true, description: "Extension name; its tools are named NAME_<tool>" },
  project: { type: "boolean", description: "Add to ./.zot/extensions instead of $ZOT_HOME/extensions" },
  global: { type: "boolean", description: "Add to $ZOT_HOME/extensions (the default)" },
  env: { type: "string", alias: "e", valueHint: "KEY=VALUE", description: "Environment of a stdio server (repeatable)" },
  url: { type: "string", valueHint: "URL", description: "A Streamable HTTP server's URL, instead of -- COMMAND" },
  header: { type: "string", alias: "H", valueHint: "KEY=VALUE",
    description: "HTTP header of a --url server (repeatable; `Name: value` also works)" },
  "no-prefix": { type: "boolean", description: "Keep the server's tool names" },
  ...cwdArg,
} as const satisfies ArgsDef;

/** For `--help`: citty renders it from the declared flags. */
export const addCommand = {
  meta: {
    name: "add",
    description: "Add an MCP server as an extension: zot mcp add NAME [OPTIONS] -- COMMAND [ARGS…] for a stdio server, "
      + "zot mcp add NAME --url URL for a Streamable HTTP one",
  },
  args: ADD_ARGS,
};

interface AddArgs {
  name: string;
  project: boolean;
  prefix: boolean;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  env: Record<string, string>;
  command: string[];
}

function pairs(flag: string, values: string[]): Record<string, string> {
  const into: Record<string, string> = {};
  for (const value of values) {
    // Headers are `Name: value` in HTTP; accept that spelling as well as KEY=VALUE.
    const at = flag === "--header" && !value.includes("=") ? value.indexOf(":") : value.indexOf("=");
    if (at <= 0) throw new UsageError(`${flag} expects KEY=VALUE, got "${value}"`);
    into[value.slice(0, at).trim()] = value.slice(at + 1).trim();
  }
  return into;
}

export function parseAddArgs(argv: string[]): AddArgs {
  const end = argv.indexOf("--");
  const flags = end < 0 ? argv : argv.slice(0, end);
  let present: Set<string>;
  try {
    present = checkArgs(flags, ADD_ARGS);
  } catch (err) {
    const stray = err instanceof UsageError && err.message.startsWith("unexpected argument");
    throw stray ? new UsageError(`${err.message} (put the server's command after --)`) : err;
  }
  const { values, rest } = takeRepeated(flags, ADD_ARGS, ["env", "header"]);
  const parsed = parseChecked(rest, ADD_ARGS, present);
  if (parsed.project === true && parsed.global === true) throw new UsageError("--project and --global exclude each other");
  const args: AddArgs = {
    name: String(parsed.name),
    project: parsed.project === true,
    // citty turns any --no-X into X=false.
    prefix: !(parsed.prefix === false || parsed["no-prefix"] === true),
    ...(typeof parsed.cwd === "string" ? { cwd: parsed.cwd } : {}),
    ...(typeof parsed.url === "string" ? { url: parsed.url } : {}),
    headers: pairs("--header", values.header!),
    env: pairs("--env", values.env!),
    command: end < 0 ? [] : argv.slice(end + 1),
  };
  if (args.url !== undefined && args.command.length > 0) throw new UsageError("give either --url or -- COMMAND, not both");
  if (args.url === undefined && args.command.length === 0) throw new UsageError("missing the server: -- COMMAND [ARGS…] or --url URL");
  if (args.url !== undefined && Object.keys(args.env).length > 0) throw new UsageError("--env is for stdio servers (-- COMMAND)");
  if (args.url === undefined && Object.keys(args.headers).length > 0) throw new UsageError("--header is for HTTP servers (--url)");
  return args;
}

export async function runAdd(argv: string[]): Promise<number> {
  const args = parseAddArgs(argv);
  const roots = rootsFor(args.cwd);
  const server: McpServerConfig = args.url !== undefined
    ? { url: args.url, ...(Object.keys(args.headers).length ? { headers: args.headers } : {}) }
    : { command: args.command[0]!, ...(args.command.length > 1 ? { args: args.command.slice(1) } : {}),
      ...(Object.keys(args.env).length ? { env: args.env } : {}) };
  const dir = await addMcpExtension(args.project ? roots.project : roots.global, { name: args.name, server, prefix: args.prefix });
  process.stdout.write(printable(`Added MCP server ${args.name} (${args.project ? "project" : "global"}, ${dir}).\n`
    + `Its tools are named ${args.prefix ? `${args.name}_<tool>` : "as the server names them"}; `
    + "check it with `zot ext doctor`.\n"));
  return 0;
}
