// `zot mcp list [--json] [--cwd PATH]`: the MCP extensions discovery finds (folders with an `mcp`
// manifest and the project's .mcp.json servers), without starting them. The flags are declared for
// citty and checked strictly.
import type { ArgsDef } from "citty";
import { listInstalled, type InstalledExtension } from "../../extensions/install/installed.ts";
import { describeServer, isHttpConfig } from "../../extensions/catalog/manifest-mcp.ts";
import { checkArgs, parseChecked } from "../args.ts";
import { cwdArg, rootsFor } from "../ext/args.ts";
import { formatTable } from "../table.ts";

export const LIST_ARGS = {
  json: { type: "boolean", description: "Print a JSON array instead of a table" },
  ...cwdArg,
} as const satisfies ArgsDef;

/** For `--help`: citty renders it from the declared flags. */
export const listCommand = {
  meta: { name: "list", description: "List the MCP servers zot loads: extension folders with an mcp manifest and ./.mcp.json servers" },
  args: LIST_ARGS,
};

export interface ListArgs {
  json: boolean;
  cwd?: string;
}

export function parseListArgs(argv: string[]): ListArgs {
  const parsed = parseChecked(argv, LIST_ARGS, checkArgs(argv, LIST_ARGS));
  return { json: parsed.json === true, ...(typeof parsed.cwd === "string" ? { cwd: parsed.cwd } : {}) };
}

export interface McpListEntry {
  name: string;
  scope: "project" | "global";
  enabled: boolean;
  shadowed: boolean;
  transport: "stdio" | "http" | null;
  server: string | null;
  path: string;
  error?: string;
}

/** Rows of .mcp.json entries are errors only when they belong to it; broken folders show when they say mcp. */
function isMcp(ext: InstalledExtension): boolean {
  return ext.kind === "mcp" || (ext.source !== undefined && ext.error !== undefined);
}

function toEntry(ext: InstalledExtension): McpListEntry {
  const mcp = ext.manifest?.mcp;
  return { name: ext.name, scope: ext.scope, enabled: ext.enabled, shadowed: ext.shadowed,
    transport: mcp ? (isHttpConfig(mcp) ? "http" : "stdio") : null, server: mcp ? describeServer(mcp) : null, path: ext.path,
    ...(ext.error ? { error: ext.error } : {}) };
}

export async function runList(argv: string[]): Promise<number> {
  const { json, cwd } = parseListArgs(argv);
  const roots = rootsFor(cwd);
  const entries = (await listInstalled(roots)).filter(isMcp).map(toEntry);
  if (json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    process.stdout.write("No MCP servers configured.\n"
      + "Add one with `zot mcp add NAME -- COMMAND ARGS…` or `zot mcp add NAME --url URL`, or list them in ./.mcp.json.\n");
    return 0;
  }
  const rows = [["NAME", "SCOPE", "STATE", "TRANSPORT", "SERVER", "FROM"]];
  for (const e of entries) {
    const state = e.error ? "error" : `${e.enabled ? "enabled" : "disabled"}${e.shadowed ? ", shadowed" : ""}`;
    rows.push([e.name, e.scope, state, e.transport ?? "-", e.error ? `error: ${e.error}` : e.server ?? "", e.path]);
  }
  process.stdout.write(`${formatTable(rows)}\n`);
  return 0;
}
