// `zot mcp remove NAME [--project|--global] [--cwd PATH]`: deletes an MCP extension folder that
// `zot mcp add` wrote. Other extensions are `zot ext remove`'s; .mcp.json servers are the project's.
import { listInstalled } from "../../extensions/install/installed.ts";
import { findInstalled, removeInstalled } from "../../extensions/install/manage.ts";
import { rootsFor, UsageError } from "../ext/args.ts";

export async function runRemove(argv: string[]): Promise<number> {
  let scope: "project" | "global" | undefined;
  let cwd: string | undefined;
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--project" || token === "--global") {
      const next = token === "--project" ? "project" : "global";
      if (scope && scope !== next) throw new UsageError("--project and --global exclude each other");
      scope = next;
    } else if (token === "--cwd") cwd = argv[++i] ?? "";
    else if (token.startsWith("--cwd=")) cwd = token.slice("--cwd=".length);
    else if (token.startsWith("-")) throw new UsageError(`unknown option ${token}`);
    else names.push(token);
  }
  if (names.length !== 1) throw new UsageError(names.length === 0 ? "missing NAME" : `unexpected argument "${names[1]}"`);
  const roots = rootsFor(cwd);
  const ext = findInstalled(await listInstalled(roots), names[0]!, scope);
  if (ext.source) throw new Error(`"${ext.name}" is declared in ${ext.source}; remove it from that file`);
  if (ext.kind !== "mcp") throw new Error(`"${ext.name}" (${ext.path}) is not an MCP server; remove it with \`zot ext remove\``);
  await removeInstalled(ext, roots);
  process.stdout.write(`Removed MCP server ${ext.name} (${ext.scope}, ${ext.path}).\n`);
  return 0;
}
