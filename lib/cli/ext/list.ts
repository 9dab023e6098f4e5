// `zot ext list [--json]`: every install under the project and global roots.
import { defineCommand } from "citty";
import { printableLine } from "../../terminal-text.ts";
import { listInstalled, type ExtensionRoots, type InstalledExtension } from "../../extensions/install/installed.ts";
import type { ManifestPermissions, OnFailure } from "../../extensions/catalog/permissions/manifest-permissions.ts";
import { cwdArg, rootsFor } from "./args.ts";
import { readBundleThemes } from "../../theme/theme-file.ts";
import { formatTable } from "../table.ts";

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
  /** true: the manifest declares no permissions (today's full user privileges). Absent for a broken manifest. */
  full_access?: boolean;
  /** The manifest's `permissions` as written; null: none declared. Absent for a broken manifest. */
  permissions?: ManifestPermissions | null;
  /** The manifest's `on_failure`, when set. */
  on_failure?: OnFailure;
  error?: string;
  /** Present when it does not start until approved: why, and the command that approves it. */
  needs_approval?: string;
  /** The source `zot ext install` fetched it from (what `zot ext update` fetches again); null: none recorded. */
  installed_from: string | null;
  /** A theme bundle's themes, by name. */
  themes?: string[];
}

const themesOf = (ext: InstalledExtension) => (ext.kind === "theme" ? readBundleThemes(ext.path).themes.map((t) => t.name) : []);

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
    installed_from: ext.installedFrom ?? null,
  };
  if (ext.manifest) {
    entry.full_access = ext.manifest.permissions === undefined;
    entry.permissions = ext.manifest.permissions ?? null;
    if (ext.manifest.on_failure !== undefined) entry.on_failure = ext.manifest.on_failure;
  }
  if (ext.error) entry.error = ext.error;
  if (ext.needsApproval) entry.needs_approval = ext.needsApproval;
  if (ext.kind === "theme") entry.themes = themesOf(ext);
  return entry;
}

/** "full access" for a manifest without permissions, "declared" for one with them. */
function access(ext: InstalledExtension): string {
  if (!ext.manifest) return "-";
  return ext.manifest.permissions === undefined ? "full access" : "declared";
}

function state(ext: InstalledExtension): string {
  if (ext.error) return "error";
  const base = ext.enabled ? "enabled" : "disabled";
  if (ext.needsApproval) return `${base}, needs approval`;
  return ext.shadowed ? `${base}, shadowed` : base;
}

/** The description column: a theme bundle says which themes it offers. */
function describe(ext: InstalledExtension): string {
  const themes = themesOf(ext);
  const text = ext.manifest?.description ?? "";
  return themes.length > 0 ? `themes: ${themes.join(", ")}${text ? ` · ${text}` : ""}` : text;
}

function render(installed: InstalledExtension[], roots: ExtensionRoots): string {
  if (installed.length === 0) {
    return "No extensions installed.\n"
      + `  project: ${roots.project}\n  global:  ${roots.global}\n`
      + "Add one with `zot ext install <folder|git-url|gh:owner/repo>` or start one with `zot ext new <name>`.\n";
  }
  const rows = [["NAME", "VERSION", "SCOPE", "STATE", "LANGUAGE", "ACCESS", "FOLDER", "SOURCE", "DESCRIPTION"]];
  for (const ext of installed) {
    rows.push([ext.name, ext.manifest?.version ?? "-", ext.scope, state(ext), ext.manifest?.language ?? "-", access(ext),
      ext.path, ext.installedFrom ?? "-", ext.error ? `error: ${ext.error}` : describe(ext)]);
  }
  const notes: string[] = [];
  if (installed.some((e) => e.manifest?.permissions === undefined && e.manifest)) {
    notes.push("full access: the manifest declares no permissions, so the extension runs with your full privileges "
      + "(`zot ext doctor` shows what declared ones grant)");
  }
  if (installed.some((e) => e.shadowed)) notes.push("shadowed: another install of the same name is loaded instead");
  for (const e of installed.filter((x) => x.needsApproval)) notes.push(printableLine(`${e.name}: ${e.needsApproval}`));
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
