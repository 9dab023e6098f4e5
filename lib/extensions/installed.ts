// What is installed: the extension folders under the project and global roots, read the way
// startup discovery reads them, for `zot ext list` and the commands that act on one install.
import { existsSync } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { projectExtensionsDir, zotPaths, type ZotPaths } from "../paths.ts";
import { loadManifest, MANIFEST_FILE, type BundleKind, type Manifest } from "./manifest.ts";

export type ExtensionScope = "project" | "global";

/** The two folders extensions are installed into. Project is searched first. */
export interface ExtensionRoots {
  project: string;
  global: string;
}

/** The roots for a project directory: `<cwd>/.zot/extensions` and `$ZOT_HOME/extensions`. */
export function extensionRoots(cwd: string, paths: ZotPaths = zotPaths()): ExtensionRoots {
  return { project: projectExtensionsDir(resolve(cwd)), global: resolve(paths.extensions) };
}

export function rootFor(roots: ExtensionRoots, scope: ExtensionScope): string {
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
  scope: ExtensionScope;
  /** Undefined when the manifest is broken (see `error`). */
  manifest?: Manifest;
  kind?: BundleKind;
  /** The manifest's `enabled` setting (defaults to true). */
  enabled: boolean;
  /** True when an earlier install (project before global, then folder order) claims the name. */
  shadowed: boolean;
  /** Why the manifest could not be loaded; such rows neither shadow nor are shadowed. */
  error?: string;
}

/** Folders we create while installing start with a dot; so do editor and VCS leftovers. */
function isCandidateFolder(name: string): boolean {
  return !name.startsWith(".");
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
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

async function scanRoot(root: string, scope: ExtensionScope): Promise<InstalledExtension[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const rows: InstalledExtension[] = [];
  for (const folder of names.filter(isCandidateFolder).sort()) {
    const path = join(root, folder);
    // Folders without a manifest (state leftovers, scratch dirs) are not installs.
    if (!(await isDirectory(path)) || !existsSync(join(path, MANIFEST_FILE))) continue;
    try {
      const loaded = await loadManifest(path);
      rows.push({ name: loaded.manifest.name, folder, path, scope, manifest: loaded.manifest,
        kind: loaded.kind, enabled: loaded.enabled, shadowed: false });
    } catch (err) {
      rows.push({ name: folder, folder, path, scope, enabled: await rawEnabled(path), shadowed: false,
        error: (err as Error).message });
    }
  }
  return rows;
}

async function samePlace(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/**
 * Every install under both roots, sorted project first, then by name, then folder.
 * A name claimed by an earlier row in discovery order (project before global, folders in
 * name order) marks later rows of that name `shadowed`, whatever their enabled state.
 */
export async function listInstalled(roots: ExtensionRoots): Promise<InstalledExtension[]> {
  // When the project root is the global root (zot run from inside $ZOT_HOME), list it once.
  const project = (await samePlace(roots.project, roots.global)) ? [] : await scanRoot(roots.project, "project");
  const discovered = [...project, ...(await scanRoot(roots.global, "global"))];
  const claimed = new Set<string>();
  for (const row of discovered) {
    if (row.error) continue;
    if (claimed.has(row.name)) row.shadowed = true;
    else claimed.add(row.name);
  }
  const scopeOrder = (s: ExtensionScope) => (s === "project" ? 0 : 1);
  return discovered.sort((a, b) => scopeOrder(a.scope) - scopeOrder(b.scope)
    || compare(a.name, b.name) || compare(a.folder, b.folder));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
