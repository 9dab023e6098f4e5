// What is installed: the extension folders under the project and global roots, read the way
// startup discovery reads them, for `zot ext list` and the commands that act on one install.
import { readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { projectExtensionsDir, zotPaths, type ZotPaths } from "../../paths.ts";
import type { Candidate } from "../catalog/candidate.ts";
import { discoverExtensions } from "../catalog/discovery.ts";
import { MANIFEST_FILE, type BundleKind, type Manifest } from "../catalog/manifest.ts";
import { trustGate } from "../catalog/trust/gate.ts";
import { readTrust } from "../catalog/trust/store.ts";
import { describeOrigin, readOrigin } from "./origin.ts";

/** Installs live in a project or the global root (`--ext` paths are not installs). */
export type InstallScope = "project" | "global";

/** The two folders extensions are installed into (project is searched first), and their sources. */
export interface ExtensionRoots {
  project: string;
  global: string;
  /** The project folder. */
  cwd: string;
  paths: ZotPaths;
}

/** The roots for a project directory: `<cwd>/.zot/extensions` and `$ZOT_HOME/extensions`. */
export function extensionRoots(cwd: string, paths: ZotPaths = zotPaths()): ExtensionRoots {
  return { project: projectExtensionsDir(resolve(cwd)), global: resolve(paths.extensions), cwd: resolve(cwd), paths };
}

export function rootFor(roots: ExtensionRoots, scope: InstallScope): string {
  return scope === "project" ? roots.project : roots.global;
}

/** One folder with an extension.json inside an extensions root. */
export interface InstalledExtension {
  /** The manifest name; the folder name when the manifest cannot be read. */
  name: string;
  /** The folder's name inside its root. */
  folder: string;
  /** Absolute path of the folder. */
  path: string;
  scope: InstallScope;
  /** Undefined when the manifest is broken (see `error`). */
  manifest?: Manifest;
  kind?: BundleKind;
  /** The manifest's `enabled` setting (defaults to true). */
  enabled: boolean;
  /** True when an earlier install (project before global, then folder order) claims the name. */
  shadowed: boolean;
  /** Why the manifest could not be loaded; such rows neither shadow nor are shadowed. */
  error?: string;
  /** Declared in a file rather than a folder (a project's .mcp.json): managed by editing that file. */
  source?: string;
  /** For one declared in a file: the folder trust pins with it (a project's `.claude/hooks`). */
  pinnedDir?: string;
  /** Why it does not start until the user approves it (project not trusted, a stale or revoked grant). */
  needsApproval?: string;
  /** Where `zot ext install` got it from (its .zot-install.json), what `zot ext update` fetches again. */
  installedFrom?: string;
}

/** Reads `enabled` from a manifest that failed validation, so the row still shows the setting. */
async function rawEnabled(dir: string): Promise<boolean> {
  try {
    const data: unknown = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    return !(data && typeof data === "object" && (data as { enabled?: unknown }).enabled === false);
  } catch {
    return true;
  }
}

async function toInstalled(candidate: Candidate): Promise<InstalledExtension | undefined> {
  if (candidate.scope === "explicit") return undefined;
  const { dir, scope, loaded, source } = candidate;
  if (source) {
    // No folder of its own: the path is the file, the folder column its server name.
    return { name: candidate.name, folder: candidate.name, path: source, scope, source,
      ...(candidate.pinnedDir ? { pinnedDir: candidate.pinnedDir } : {}), manifest: loaded?.manifest,
      kind: loaded?.kind, enabled: loaded?.enabled ?? true, shadowed: candidate.decision === "shadowed",
      ...(loaded ? {} : { error: candidate.error ?? "invalid server entry" }) };
  }
  const folder = basename(dir);
  if (!loaded) {
    return { name: candidate.name, folder, path: dir, scope, enabled: await rawEnabled(dir), shadowed: false,
      error: candidate.error ?? "manifest could not be loaded" };
  }
  const origin = await readOrigin(dir);
  return { name: loaded.manifest.name, folder, path: dir, scope, manifest: loaded.manifest, kind: loaded.kind,
    enabled: loaded.enabled, shadowed: candidate.decision === "shadowed",
    ...(candidate.trust ? { needsApproval: candidate.trust.message } : {}),
    ...(origin ? { installedFrom: describeOrigin(origin) } : {}) };
}

/**
 * Every install under both roots (folders holding an extension.json; dot-folders skipped),
 * sorted project first, then by name, then folder. `shadowed` is startup discovery's verdict:
 * a name claimed earlier in load order (project before global, folders in name order),
 * whatever that claimer's enabled state.
 */
export async function listInstalled(roots: ExtensionRoots): Promise<InstalledExtension[]> {
  // Startup discovery decides what exists and which copy claims a name, so list agrees with it.
  const candidates = await discoverExtensions({ cwd: roots.cwd, paths: roots.paths,
    trust: trustGate(await readTrust(roots.paths), { cwd: roots.cwd, paths: roots.paths }) });
  const rows: InstalledExtension[] = [];
  for (const candidate of candidates) {
    const row = await toInstalled(candidate);
    if (row) rows.push(row);
  }
  const scopeOrder = (s: InstallScope) => (s === "project" ? 0 : 1);
  return rows.sort((a, b) => scopeOrder(a.scope) - scopeOrder(b.scope)
    || compare(a.name, b.name) || compare(a.folder, b.folder));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
