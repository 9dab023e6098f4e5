// `zot mcp add NAME [--project] [--env K=V]… [--cwd-server DIR] [--no-prefix] -- COMMAND ARGS…`
// and `zot mcp add NAME [--project] --url URL [--header K=V]…`: writes an MCP extension folder.
import { addMcpExtension } from "../../extensions/mcp/add.ts";
import type { McpServerConfig } from "../../extensions/mcp/manifest-mcp.ts";
import { rootsFor, UsageError } from "../ext/args.ts";

export const ADD_USAGE = "Usage: zot mcp add NAME [--project] [--env KEY=VALUE]… [--no-prefix] -- COMMAND [ARGS…]\n"
  + "       zot mcp add NAME [--project] --url URL [--header KEY=VALUE]… [--no-prefix]";

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

function pair(flag: string, value: string, into: Record<string, string>): void {
  // Headers are `Name: value` in HTTP; accept that spelling as well as KEY=VALUE.
  const at = flag === "--header" && !value.includes("=") ? value.indexOf(":") : value.indexOf("=");
  if (at <= 0) throw new UsageError(`${flag} expects KEY=VALUE, got "${value}"`);
  into[value.slice(0, at).trim()] = value.slice(at + 1).trim();
}

export function parseAddArgs(argv: string[]): AddArgs {
  const end = argv.indexOf("--");
  const flags = end < 0 ? argv : argv.slice(0, end);
  const args: AddArgs = { name: "", project: false, prefix: true, headers: {}, env: {}, command: end < 0 ? [] : argv.slice(end + 1) };
  const names: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const token = flags[i]!;
    const eq = token.startsWith("--") ? token.indexOf("=") : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    const value = () => {
      if (eq > 0) return token.slice(eq + 1);
      const next = flags[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === "--project") args.project = true;
    else if (flag === "--global") args.project = false;
    else if (flag === "--no-prefix") args.prefix = false;
    else if (flag === "--url") args.url = value();
    else if (flag === "--header" || flag === "-H") pair("--header", value(), args.headers);
    else if (flag === "--env" || flag === "-e") pair("--env", value(), args.env);
    else if (flag === "--cwd") args.cwd = value();
    else if (token.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
    else names.push(token);
  }
  if (names.length === 0) throw new UsageError("missing NAME");
  if (names.length > 1) throw new UsageError(`unexpected argument "${names[1]}" (put the server's command after --)`);
  args.name = names[0]!;
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
  process.stdout.write(`Added MCP server ${args.name} (${args.project ? "project" : "global"}, ${dir}).\n`
    + `Its tools are named ${args.prefix ? `${args.name}_<tool>` : "as the server names them"}; `
    + "check it with `zot ext doctor`.\n");
  return 0;
}
