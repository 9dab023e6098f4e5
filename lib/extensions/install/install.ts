// `zot ext install`: fetch a source into a hidden staging folder inside the extensions root,
// check it, then rename it to `<root>/<manifest name>`. Any failure removes the staging folder,
// so an install either lands whole or leaves nothing behind.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rename, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { loadManifest, MANIFEST_FILE, ManifestError, type BundleKind, type Manifest } from "../catalog/manifest.ts";
import { isPluginFolder, loadPlugin, PLUGIN_MANIFEST } from "../catalog/plugin-manifest.ts";
import { resolvePlugin } from "./marketplace.ts";
import type { ZotPaths } from "../../paths.ts";
import { copyFolder } from "./copy.ts";
import { downloadWithGiget } from "./giget.ts";
import { gitClone } from "./git.ts";
import { assertLinksInside } from "./links.ts";
import { writeOrigin } from "./origin.ts";
import { removeTree, removeTreeSync } from "./remove-tree.ts";
import { classifySource, describeSource, MARKETPLACE_PLUGIN, type InstallSource } from "./source.ts";

export { classifySource, describeSource, type InstallSource } from "./source.ts";

/** Staging and replaced folders are hidden siblings of the installs; discovery skips dot-folders. */
export const STAGING_PREFIX = ".zot-install-";
const REPLACED_PREFIX = ".zot-replaced-";
/** `zot ext new` stages under this prefix (see templates/scaffold.ts). */
const SCAFFOLD_PREFIX = ".zot-new-";
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes staging folders a killed install or scaffold left behind. Only old ones: a folder of
 * an install running right now is young.
 */
async function sweepStale(root: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(root)) {
    if (![STAGING_PREFIX, REPLACED_PREFIX, SCAFFOLD_PREFIX].some((p) => name.startsWith(p))) continue;
    const path = join(root, name);
    const info = await lstat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_MS) await removeTree(path);
  }
}

export interface InstallOptions {
  /** A folder, git URL or giget source (see `classifySource`), or one already classified. */
  source: string | InstallSource;
  /** The extensions root to install into (created if missing). */
  root: string;
  /** Relative folder sources resolve against this. */
  cwd: string;
  /** Replace an existing install of the same name. */
  force?: boolean;
  /** Receives one human line per slow step (copy, clone, download). */
  progress?: (line: string) => void;
  /** Told about source entries that were not copied. */
  warn?: (line: string) => void;
  /** Environment for git and giget (defaults to the process environment). */
  env?: NodeJS.ProcessEnv;
  /**
   * A download or clone that makes no progress for this long is abandoned and rolled back
   * (default 60 s).
   */
  idleTimeoutMs?: number;
  /**
   * For CLIs: on SIGINT/SIGTERM while installing, remove the staging folder and exit the
   * process (130/143). Off by default so embedders keep control of their signals.
   */
  exitOnSignal?: boolean;
  /**
   * Asked once the staged extension's manifest is valid, before it is moved into place (the
   * trust question: what it requests). false cancels the install; nothing is left behind.
   */
  confirm?(manifest: Manifest, kind: BundleKind, staging: string): Promise<boolean>;
  /** zot's folders, for a `plugin@marketplace` source (the marketplaces added there). */
  paths?: ZotPaths;
  /** The folder name inside `root` (default: the manifest name); an update keeps the old one's. */
  folder?: string;
  /** Refuse a source whose manifest has another name (an update must stay the same extension). */
  expectName?: string;
  /**
   * Called on the staged folder once its manifest is valid and its origin recorded, before
   * `confirm` (an update carries the old folder's data and enabled state over here).
   */
  prepare?(staging: string): Promise<void>;
}

/** The user (or the lack of a terminal to ask on) declined the install. */
export class InstallCancelledError extends Error {
  constructor(readonly extension: string, message = `${extension} was not installed`) {
    super(message);
    this.name = "InstallCancelledError";
  }
}

export interface InstallResult {
  name: string;
  manifest: Manifest;
  kind: BundleKind;
  /** Where the extension now lives: `<root>/<name>`. */
  path: string;
  source: InstallSource;
  /** True when `--force` replaced an earlier install. */
  replaced: boolean;
}

async function fetchInto(source: InstallSource, staging: string, options: InstallOptions): Promise<void> {
  if (source.kind === "folder") {
    options.progress?.(`Copying ${source.path} …`);
    await copyFolder(source.path, staging, { onSkip: (path, why) => options.warn?.(`skipped ${path}: ${why}`) });
  } else if (source.kind === "marketplace") {
    if (!options.paths) throw new Error(`${describeSource(source)}: installing from a marketplace needs zot's folders`);
    options.progress?.(`Resolving ${describeSource(source)} …`);
    const resolved = await resolvePlugin(options.paths, source.plugin, source.marketplace);
    try {
      await copyFolder(resolved.path, staging, { onSkip: (path, why) => options.warn?.(`skipped ${path}: ${why}`) });
    } finally {
      await resolved.cleanup();
    }
  } else if (source.kind === "git") {
    options.progress?.(`Cloning ${describeSource(source)} …`);
    await gitClone(source.url, staging, { ref: source.ref, env: options.env, idleTimeoutMs: options.idleTimeoutMs });
  } else {
    options.progress?.(`Downloading ${source.source} …`);
    await downloadWithGiget(source.source, staging, { env: options.env, idleTimeoutMs: options.idleTimeoutMs });
  }
}

async function assertFolderSource(path: string): Promise<void> {
  let isDir = false;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch {
    throw new Error(`${path} does not exist (expected a folder, a git URL, or gh:owner/repo)`);
  }
  if (!isDir) throw new Error(`${path} is not a folder`);
  if (!existsSync(join(path, MANIFEST_FILE)) && !isPluginFolder(path, true)) {
    throw new Error(`${path} has no ${MANIFEST_FILE} (nor a Claude Code plugin's ${PLUGIN_MANIFEST}); an extension folder needs one at its top level`);
  }
}

async function validateStaged(staging: string, from: string): Promise<{ manifest: Manifest; kind: BundleKind }> {
  if (!existsSync(join(staging, MANIFEST_FILE)) && isPluginFolder(staging, true)) {
    try {
      const { loaded } = loadPlugin(staging);
      return { manifest: loaded.manifest, kind: "plugin" };
    } catch (err) {
      throw new Error(`the plugin from ${from} is invalid: ${(err as Error).message.replace(staging, from)}; nothing was installed`);
    }
  }
  if (!existsSync(join(staging, MANIFEST_FILE))) {
    throw new Error(`${from} has no ${MANIFEST_FILE} at its top level; nothing was installed`);
  }
  try {
    const loaded = await loadManifest(staging);
    return { manifest: loaded.manifest, kind: loaded.kind };
  } catch (err) {
    if (!(err instanceof ManifestError)) throw err;
    const detail = err.message.slice(join(staging, MANIFEST_FILE).length + 2);
    throw new Error(`${MANIFEST_FILE} from ${from} is invalid: ${detail}; nothing was installed`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves the staged folder to `dest`; with an existing `dest`, swaps it out and back on failure. */
async function moveIntoPlace(staging: string, dest: string, root: string): Promise<boolean> {
  if (!(await exists(dest))) {
    await rename(staging, dest);
    return false;
  }
  const aside = join(root, `${REPLACED_PREFIX}${randomBytes(6).toString("hex")}`);
  await rename(dest, aside);
  try {
    await rename(staging, dest);
  } catch (err) {
    await rename(aside, dest);
    throw err;
  }
  await removeTree(aside);
  return true;
}

/**
 * Installs an extension from `source` into `root/<manifest name>`. Validates extension.json with
 * the manifest schema and refuses symlinks leading outside the extension. Refuses to replace an
 * existing install unless `force`. Never writes outside `root`; on failure the staging folder
 * is removed (see `exitOnSignal` for interruptions). Staging leftovers of crashed runs older
 * than a day are swept first.
 */
export async function installExtension(options: InstallOptions): Promise<InstallResult> {
  const given = options.source;
  const named = typeof given === "string" && !existsSync(resolve(options.cwd, given)) ? MARKETPLACE_PLUGIN.exec(given) : null;
  const source: InstallSource = named ? { kind: "marketplace", plugin: named[1]!, marketplace: named[2]! }
    : typeof given === "string" ? classifySource(given, options.cwd) : given;
  if (source.kind === "folder") await assertFolderSource(source.path);
  await mkdir(options.root, { recursive: true });
  const root = await realpath(options.root);
  await sweepStale(root);
  const staging = await mkdtemp(join(root, STAGING_PREFIX));
  const onSignal = (signal: NodeJS.Signals) => {
    removeTreeSync(staging);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  if (options.exitOnSignal) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  }
  let placed = false;
  try {
    await fetchInto(source, staging, options);
    const from = describeSource(source);
    await assertLinksInside(staging, from);
    let { manifest, kind } = await validateStaged(staging, from);
    if (options.expectName !== undefined && manifest.name !== options.expectName) {
      throw new Error(`${from} now holds the extension "${manifest.name}", not "${options.expectName}"; nothing was changed`);
    }
    const dest = join(root, options.folder ?? manifest.name);
    if (!options.force && (await exists(dest))) {
      throw new Error(`${manifest.name} is already installed at ${dest}; pass --force to replace it`);
    }
    await writeOrigin(staging, source);
    if (options.prepare) {
      await options.prepare(staging);
      ({ manifest, kind } = await validateStaged(staging, from));
    }
    // mkdtemp made the staging folder private; a copied folder keeps its source's mode. Done
    // last, so a read-only source mode cannot get in the way of a rollback.
    if (options.confirm && !(await options.confirm(manifest, kind, staging))) throw new InstallCancelledError(manifest.name);
    if (source.kind === "folder") await chmod(staging, (await stat(source.path)).mode & 0o7777);
    const replaced = await moveIntoPlace(staging, dest, root);
    placed = true;
    return { name: manifest.name, manifest, kind, path: dest, source, replaced };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (!placed) await removeTree(staging);
  }
}
