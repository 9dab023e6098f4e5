// `zot ext list [--json]`: every install under the project and global roots.
import { defineCommand } from "citty";
import { listInstalled, type ExtensionRoots, type InstalledExtension } from "../../extensions/install/installed.ts";
import { cwdArg, rootsFor } from "./args.ts";

/** One row of `zot ext list --json`. `error` is present only for broken manifests. */
export interface ListEntry {
  name: string;
  version: string | null;
  scope: "project" | "global";
  enabled: boolean;
  language: string | null;
  description: string | null;
  path: string;
  shadowed: boolean;
  error?: string;
}

export function toListEntry(ext: InstalledExtension): ListEntry {
  const entry: ListEntry = {
    name: ext.name,
    version: ext.manifest?.version ?? null,
    scope: ext.scope,
    enabled: ext.enabled,
    language: ext.manifest?.language ?? null,
    description: ext.manifest?.description ?? null,
    path: ext.path,
    shadowed: ext.shadowed,
  };
  if (ext.error) entry.error = ext.error;
  return entry;
}

function state(ext: InstalledExtension): string {
  if (ext.error) return "error";
  const base = ext.enabled ? "enabled" : "disabled";
  return ext.shadowed ? `${base}, shadowed` : base;
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  return rows
    .map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]))).join("  ").trimEnd())
    .join("\n");
}

function render(installed: InstalledExtension[], roots: ExtensionRoots): string {
  if (installed.length === 0) {
    return "No extensions installed.\n"
      + `  project: ${roots.project}\n  global:  ${roots.global}\n`
      + "Add one with `zot ext install <folder|git-url|gh:owner/repo>` or start one with `zot ext new <name>`.\n";
  }
  const rows = [["NAME", "VERSION", "SCOPE", "STATE", "LANGUAGE", "FOLDER", "DESCRIPTION"]];
  for (const ext of installed) {
    rows.push([ext.name, ext.manifest?.version ?? "-", ext.scope, state(ext), ext.manifest?.language ?? "-",
      ext.path, ext.error ? `error: ${ext.error}` : ext.manifest?.description ?? ""]);
  }
  const notes: string[] = [];
  if (installed.some((e) => e.shadowed)) notes.push("shadowed: another install of the same name is loaded instead");
  return `${formatTable(rows)}\n${notes.map((n) => `\n${n}\n`).join("")}`;
}

export const listCommand = defineCommand({
  meta: { name: "list", description: "List installed extensions (project and global) and their state" },
  args: {
    json: { type: "boolean", description: "Print a JSON array instead of a table" },
    ...cwdArg,
  },
  async run({ args }) {
    const roots = rootsFor(args.cwd);
    const installed = await listInstalled(roots);
    if (args.json) process.stdout.write(`${JSON.stringify(installed.map(toListEntry), null, 2)}\n`);
    else process.stdout.write(render(installed, roots));
    return 0;
  },
});
