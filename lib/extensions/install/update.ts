// `zot ext update`: install an extension again from the source recorded when it was installed
// (origin.ts), into a staging folder, then swap it in by rename (installExtension's path, so a
// failed fetch or a refused approval leaves the old folder as it was). The old folder's enabled
// state and its data (every file the install did not put there) are carried over.
import { existsSync } from "node:fs";
import { chmod, copyFile, lstat, mkdir, readFile, readlink, symlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { BundleKind, Manifest } from "../catalog/manifest.ts";
import { MANIFEST_FILE } from "../catalog/manifest.ts";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { installExtension, type InstallOptions, type InstallResult } from "./install.ts";
import { rootFor, type ExtensionRoots, type InstalledExtension } from "./installed.ts";
import { rewriteEnabled } from "./manage.ts";
import { filesUnder, readOrigin, type InstallOrigin } from "./origin.ts";

export class NoRecordedSourceError extends Error {
  constructor(readonly extension: string) {
    super(`${extension} has no recorded source (it was not installed with \`zot ext install\`, or before zot recorded sources); `
      + "install it again with `zot ext install --force SOURCE`");
    this.name = "NoRecordedSourceError";
  }
}

export interface UpdateOptions extends Pick<InstallOptions, "progress" | "warn" | "env" | "idleTimeoutMs" | "exitOnSignal"> {
  /** Asked with the updated manifest before it replaces the old one; false keeps the old one. */
  confirm?(manifest: Manifest, kind: BundleKind, previous: Manifest | undefined, staging: string): Promise<boolean>;
}

export interface UpdateResult extends InstallResult {
  previous?: Manifest;
  origin: InstallOrigin;
}

/**
 * Copies into `staging` every file and link of `old` that the install did not write (the
 * extension's own data: `todos.json`, a cache), unless the new version ships that path itself.
 */
export async function carryData(old: string, staging: string, installed: string[]): Promise<string[]> {
  const shipped = new Set(installed);
  const carried: string[] = [];
  for (const rel of await filesUnder(old)) {
    if (shipped.has(rel) || rel.split("/")[0] === ".git") continue;
    const from = join(old, rel);
    const to = join(staging, rel);
    if (await lstat(to).catch(() => undefined)) continue;
    await mkdir(dirname(to), { recursive: true });
    const info = await lstat(from);
    if (info.isSymbolicLink()) await symlink(await readlink(from), to);
    else if (info.isFile()) {
      await copyFile(from, to);
      await chmod(to, info.mode & 0o7777);
    } else continue;
    carried.push(rel);
  }
  return carried;
}

/** Sets the staged manifest's `enabled` to what the user had chosen for the old copy. */
async function keepEnabled(staging: string, enabled: boolean): Promise<void> {
  const path = join(staging, MANIFEST_FILE);
  if (!existsSync(path)) return; // a plugin: its switch (.zot-plugin.json) is carried with its data
  const text = await readFile(path, "utf8");
  const current = (JSON.parse(text) as { enabled?: unknown }).enabled !== false;
  if (current !== enabled) await writeFileAtomic(path, rewriteEnabled(text, enabled, path));
}

/** Re-installs `ext` from its recorded source; throws (the old folder untouched) when that fails. */
export async function updateExtension(ext: InstalledExtension, roots: ExtensionRoots, options: UpdateOptions = {}): Promise<UpdateResult> {
  if (ext.source) throw new Error(`cannot update "${ext.name}": it is declared in ${ext.source}; edit that file instead`);
  if ((await lstat(ext.path)).isSymbolicLink()) throw new Error(`cannot update "${ext.name}": ${ext.path} is a link to a folder zot did not install`);
  const origin = await readOrigin(ext.path);
  if (!origin) throw new NoRecordedSourceError(ext.name);
  const previous = ext.manifest;
  const result = await installExtension({
    ...options,
    source: origin.source,
    root: rootFor(roots, ext.scope),
    cwd: roots.cwd,
    paths: roots.paths,
    force: true,
    folder: basename(ext.path),
    ...(previous ? { expectName: previous.name } : {}),
    prepare: async (staging) => {
      await carryData(ext.path, staging, origin.files);
      await keepEnabled(staging, ext.enabled);
    },
    confirm: options.confirm ? (manifest, kind, staging) => options.confirm!(manifest, kind, previous, staging) : undefined,
  });
  return { ...result, previous, origin };
}
