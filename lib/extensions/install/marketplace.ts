// Claude Code plugin marketplaces: a `.claude-plugin/marketplace.json` listing plugins and where
// each comes from. `zot ext marketplace add` keeps a copy of the marketplace under
// `$ZOT_HOME/marketplaces/<name>` (its source recorded in `marketplaces.json`, so `update` fetches
// it again); `zot ext install NAME@MARKETPLACE` resolves the entry's source to a folder: a path
// inside the marketplace, or a git repository (`github`, `url`, `git-subdir`) checked out at the
// entry's `sha` exactly (refused when that commit is not there) or its `ref`.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { tmpdir } from "node:os";
import { x } from "tinyexec";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import type { ZotPaths } from "../../paths.ts";
import { copyFolder } from "./copy.ts";
import { downloadWithGiget } from "./giget.ts";
import { gitClone } from "./git.ts";
import { classifySource, type InstallSource } from "./source.ts";
import { isJsonObject } from "../../protocol/index.ts";

export const MARKETPLACE_FILE = join(".claude-plugin", "marketplace.json");

export interface MarketplaceEntry {
  name: string;
  description?: string;
  version?: string;
  source: unknown;
}

export interface Marketplace {
  name: string;
  dir: string;
  plugins: MarketplaceEntry[];
}

/** `marketplaces.json`: each added marketplace's source, as the user gave it. */
type Registry = Record<string, { source: string; added_at: string }>;

export const marketplacesDir = (paths: ZotPaths) => join(paths.home, "marketplaces");
const registryPath = (paths: ZotPaths) => join(paths.home, "marketplaces.json");

function readRegistry(paths: ZotPaths): Registry {
  try {
    const data: unknown = JSON.parse(readFileSync(registryPath(paths), "utf8"));
    return isJsonObject(data) ? data as Registry : {};
  } catch {
    return {};
  }
}

/** The marketplace in `dir`, or an error naming its file. */
export function readMarketplace(dir: string): Marketplace {
  const file = join(dir, MARKETPLACE_FILE);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "missing (a marketplace has .claude-plugin/marketplace.json)" : `invalid JSON: ${(err as Error).message}`}`);
  }
  if (!isJsonObject(data) || typeof data.name !== "string" || !Array.isArray(data.plugins)) {
    throw new Error(`${file}: must hold {"name": …, "plugins": [...]}`);
  }
  const plugins = data.plugins.filter((p): p is MarketplaceEntry => isJsonObject(p) && typeof p.name === "string" && p.source !== undefined);
  return { name: data.name, dir, plugins };
}

/** Fetches a marketplace source (owner/repo, a git URL, a folder, or a URL to a marketplace.json) into `dest`. */
async function fetchMarketplace(source: string, dest: string, cwd: string): Promise<void> {
  if (/^https?:\/\/.*\.json$/i.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
    await writeFileAtomic(join(dest, MARKETPLACE_FILE), await response.text());
    return;
  }
  const classified: InstallSource = /^[\w.-]+\/[\w.-]+$/.test(source) && !existsSync(resolve(cwd, source))
    ? { kind: "giget", source: `gh:${source}` } : classifySource(source, cwd);
  if (classified.kind === "folder") {
    if (!existsSync(join(classified.path, MARKETPLACE_FILE))) throw new Error(`${classified.path} has no ${MARKETPLACE_FILE}`);
    await mkdir(dest, { recursive: true });
    await copyFolder(classified.path, dest, {});
  }
  else if (classified.kind === "git") await gitClone(classified.url, dest, classified.ref ? { ref: classified.ref } : {});
  else if (classified.kind === "giget") await downloadWithGiget(classified.source, dest, {});
  else throw new Error(`${source}: a marketplace source is owner/repo, a git URL, a folder or a URL to a marketplace.json`);
}

/** Adds (or with `replace`, fetches again) a marketplace; returns it as stored. */
export async function addMarketplace(paths: ZotPaths, source: string, cwd: string, replace = false): Promise<Marketplace> {
  const staging = mkdtempSync(join(tmpdir(), "zot-marketplace-"));
  try {
    await fetchMarketplace(source, join(staging, "m"), cwd);
    const fetched = readMarketplace(join(staging, "m"));
    const registry = readRegistry(paths);
    if (registry[fetched.name] && !replace) throw new Error(`a marketplace named "${fetched.name}" is already added (zot ext marketplace update ${fetched.name})`);
    const dest = join(marketplacesDir(paths), fetched.name);
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    await copyFolder(join(staging, "m"), dest, {});
    registry[fetched.name] = { source, added_at: new Date().toISOString() };
    await writeFileAtomic(registryPath(paths), `${JSON.stringify(registry, null, 2)}\n`);
    return { ...fetched, dir: dest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export function listMarketplaces(paths: ZotPaths): Array<{ name: string; source: string; marketplace?: Marketplace; error?: string }> {
  return Object.entries(readRegistry(paths)).map(([name, { source }]) => {
    try {
      return { name, source, marketplace: readMarketplace(join(marketplacesDir(paths), name)) };
    } catch (err) {
      return { name, source, error: (err as Error).message };
    }
  });
}

export async function updateMarketplace(paths: ZotPaths, name: string, cwd: string): Promise<Marketplace> {
  const entry = readRegistry(paths)[name];
  if (!entry) throw new Error(`no marketplace "${name}" (zot ext marketplace list)`);
  return addMarketplace(paths, entry.source, cwd, true);
}

export async function removeMarketplace(paths: ZotPaths, name: string): Promise<void> {
  const registry = readRegistry(paths);
  if (!registry[name]) throw new Error(`no marketplace "${name}" (zot ext marketplace list)`);
  delete registry[name];
  await rm(join(marketplacesDir(paths), name), { recursive: true, force: true });
  await writeFileAtomic(registryPath(paths), `${JSON.stringify(registry, null, 2)}\n`);
}

/** Runs git, with its stderr in the error. */
async function git(args: string[], cwd?: string): Promise<string> {
  const run = await x("git", args, { throwOnError: false, nodePath: false, nodeOptions: { ...(cwd ? { cwd } : {}), env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } } });
  if (run.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${run.stderr.trim() || `exit ${run.exitCode}`}`);
  return run.stdout.trim();
}

/** A clone of `url` at exactly `sha` (or `ref`), without its .git; a sha that is not there is refused. */
async function checkout(url: string, dir: string, at: { ref?: string; sha?: string }): Promise<void> {
  if (!at.sha) return gitClone(url, dir, at.ref ? { ref: at.ref } : {});
  await git(["clone", "--quiet", "--no-checkout", "--", url, dir]);
  try {
    await git(["checkout", "--quiet", "--detach", at.sha], dir);
  } catch {
    throw new Error(`${url} has no commit ${at.sha} (the marketplace pins it): refused, nothing was installed`);
  }
  const head = await git(["rev-parse", "HEAD"], dir);
  if (!head.startsWith(at.sha.toLowerCase())) throw new Error(`${url} checked out ${head}, not the pinned ${at.sha}: refused`);
  await rm(join(dir, ".git"), { recursive: true, force: true });
}

/**
 * The folder of `plugin` from `marketplace`, fetched into a temporary folder when it is not
 * inside the marketplace (call `cleanup` when done), and what `zot ext list` should say it came from.
 */
export async function resolvePlugin(paths: ZotPaths, plugin: string, marketplace: string):
  Promise<{ path: string; cleanup: () => Promise<void>; entry: MarketplaceEntry }> {
  const dir = join(marketplacesDir(paths), marketplace);
  if (!readRegistry(paths)[marketplace]) throw new Error(`no marketplace "${marketplace}" (add it with zot ext marketplace add SOURCE)`);
  const found = readMarketplace(dir);
  const entry = found.plugins.find((p) => p.name === plugin);
  if (!entry) throw new Error(`marketplace "${marketplace}" lists no plugin "${plugin}"`);
  const none = async () => {};
  if (typeof entry.source === "string") {
    const path = resolve(dir, entry.source);
    if (path !== dir && !path.startsWith(dir + sep)) throw new Error(`plugin "${plugin}": its source ${entry.source} leaves the marketplace; refused`);
    return { path, cleanup: none, entry };
  }
  const s = entry.source;
  if (!isJsonObject(s)) throw new Error(`plugin "${plugin}": its source is neither a path nor an object`);
  const at = { ...(typeof s.ref === "string" ? { ref: s.ref } : {}), ...(typeof s.sha === "string" ? { sha: s.sha } : {}) };
  const url = s.source === "github" && typeof s.repo === "string" ? `https://github.com/${s.repo}.git`
    : (s.source === "url" || s.source === "git-subdir") && typeof s.url === "string" ? s.url : undefined;
  if (!url) throw new Error(`plugin "${plugin}": a source of kind ${JSON.stringify(s.source)} is not supported (relative path, github, url, git-subdir are)`);
  const temp = mkdtempSync(join(tmpdir(), "zot-plugin-"));
  const cleanup = () => rm(temp, { recursive: true, force: true });
  try {
    await checkout(url, join(temp, "repo"), at);
    const sub = s.source === "git-subdir" && typeof s.path === "string" ? s.path : ".";
    const path = resolve(temp, "repo", sub);
    if (!path.startsWith(join(temp, "repo"))) throw new Error(`plugin "${plugin}": its path ${sub} leaves the repository; refused`);
    if (!existsSync(path)) throw new Error(`plugin "${plugin}": ${sub} is not in ${url}`);
    return { path, cleanup, entry };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
