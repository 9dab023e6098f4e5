// `zot mcp remove NAME [--project|--global] [--cwd PATH]`: deletes an MCP extension folder that
// `zot mcp add` wrote. Other extensions are `zot ext remove`'s; .mcp.json servers are the project's.
// The flags are declared for citty and checked strictly.
import type { ArgsDef } from "citty";
import { listInstalled, type InstallScope } from "../../extensions/install/installed.ts";
import { findInstalled, removeInstalled } from "../../extensions/install/manage.ts";
import { checkArgs, parseChecked } from "../args.ts";
import { cwdArg, rootsFor, scopeOf } from "../ext/args.ts";
import { printable } from "../../terminal-text.ts";

export const REMOVE_ARGS = {
  name: { type: "positional", required: true, description: "Name of the MCP server, as `zot mcp list` shows it" },
  project: { type: "boolean", description: "Only consider project servers (./.zot/extensions)" },
  global: { type: "boolean", description: "Only consider global servers ($ZOT_HOME/extensions)" },
  ...cwdArg,
} as const satisfies ArgsDef;

/** For `--help`: citty renders it from the declared flags. */
export const removeCommand = {
  meta: { name: "remove", description: "Remove an MCP server added with `zot mcp add` (deletes its extension folder)" },
  args: REMOVE_ARGS,
};

export interface RemoveArgs {
  name: string;
  scope?: InstallScope;
  cwd?: string;
}

export function parseRemoveArgs(argv: string[]): RemoveArgs {
  const parsed = parseChecked(argv, REMOVE_ARGS, checkArgs(argv, REMOVE_ARGS));
  const scope = scopeOf({ project: parsed.project === true, global: parsed.global === true });
  return { name: String(parsed.name), ...(scope ? { scope } : {}), ...(typeof parsed.cwd === "string" ? { cwd: parsed.cwd } : {}) };
}

export async function runRemove(argv: string[]): Promise<number> {
  const args = parseRemoveArgs(argv);
  const roots = rootsFor(args.cwd);
  const ext = findInstalled(await listInstalled(roots), args.name, args.scope);
  if (ext.source) throw new Error(`"${ext.name}" is declared in ${ext.source}; remove it from that file`);
  if (ext.kind !== "mcp") throw new Error(`"${ext.name}" (${ext.path}) is not an MCP server; remove it with \`zot ext remove\``);
  await removeInstalled(ext, roots);
  process.stdout.write(printable(`Removed MCP server ${ext.name} (${ext.scope}, ${ext.path}).\n`));
  return 0;
}
