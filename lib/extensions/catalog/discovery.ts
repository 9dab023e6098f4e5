// Startup discovery: which extension folders exist, in which order they load, and which copy of
// a name wins. Explicit `--ext` paths come first, then `<cwd>/.zot/extensions/*`, then the
// servers of `<cwd>/.mcp.json`, the hooks of `<cwd>/.claude/settings{,.local}.json`, then
// `$ZOT_HOME/extensions/*` and the hooks of config.json (hook-sources.ts). The first candidate of a manifest
// name (in that order) that will be used claims it; later ones are reported as shadowed, and
// disabled or untrusted ones claim nothing. Folders without a manifest are ignored in the search
// roots (state leftovers), but an explicit path must have one.
// Folders and small files are read synchronously (see config.ts).
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { projectExtensionsDir, type ZotPaths } from "../../paths.ts";
import type { Candidate, DiscoveryScope, TrustProblem } from "./candidate.ts";
import { execOutsideFolder } from "./exec-outside-folder.ts";
import { loadManifest, MANIFEST_FILE, runsAsExtension } from "./manifest.ts";
import { MCP_JSON_FILE, readMcpJson } from "./dot-mcp-json.ts";
import { projectHookCandidates, userHooksCandidate } from "./hook-sources.ts";
import { projectCommandCandidates, userCommandCandidates } from "./command-sources.ts";
import { isPluginFolder, loadPlugin, pluginMcpCandidates } from "./plugin-manifest.ts";
import type { TrustGate } from "./trust/gate.ts";
import { nameKey } from "./names.ts";

export interface DiscoveryOptions {
  cwd: string;
  paths: ZotPaths;
  explicit?: string[];
  /** The user's home, where Claude Code keeps `~/.claude/commands` (default: the OS's). */
  home?: string;
  /** false skips the project and global roots (`--no-ext`); explicit paths still load. */
  discover?: boolean;
  /**
   * Which candidates may start (recorded trust, see trust/gate.ts). Absent: every one, as the
   * caller vouches for what it discovers (zot's runtime always passes one).
   */
  trust?: TrustGate;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Folders of one search root that hold a manifest, in name order; dot-folders are skipped. */
function scanRoot(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const dirs = names.filter((n) => !n.startsWith(".")).sort().map((name) => join(root, name));
  return dirs.filter((dir) => isDirectory(dir) && (existsSync(join(dir, MANIFEST_FILE)) || isPluginFolder(dir)));
}

async function readCandidate(dir: string, scope: DiscoveryScope): Promise<Candidate> {
  const folderName = dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
  if (isPluginFolder(dir, scope === "explicit")) {
    try {
      const { loaded, warnings } = loadPlugin(dir);
      return { dir, scope, name: loaded.manifest.name, loaded, decision: "spawn", warnings };
    } catch (err) {
      return { dir, scope, name: folderName, decision: "error", error: (err as Error).message, warnings: [] };
    }
  }
  try {
    const loaded = await loadManifest(dir);
    const outside = loaded.manifest.exec ? execOutsideFolder(dir, loaded.manifest.exec) : undefined;
    return { dir, scope, name: loaded.manifest.name, loaded, decision: "spawn", warnings: outside ? [outside] : [] };
  } catch (err) {
    return { dir, scope, name: folderName, decision: "error", error: (err as Error).message, warnings: [] };
  }
}

/** The servers of the project's `.mcp.json`: project-local candidates after its .zot/extensions folders. */
async function mcpJsonCandidates(project: string): Promise<Array<Promise<{ key: string; candidate: Candidate }>>> {
  const file = join(project, MCP_JSON_FILE);
  return (await readMcpJson(project)).map(async (entry) => {
    const candidate: Candidate = entry.loaded
      ? { dir: project, scope: "project", name: entry.name, loaded: entry.loaded, decision: "spawn", warnings: [], source: file }
      : { dir: project, scope: "project", name: entry.name, decision: "error", error: entry.error, warnings: [], source: file };
    return { key: `${canonical(file)}#${entry.name}`, candidate };
  });
}

/**
 * Finds every extension folder and decides what to do with each, in load order. Never throws:
 * unreadable or invalid manifests become `error` candidates whose message names the folder.
 */
export async function discoverExtensions(options: DiscoveryOptions): Promise<Candidate[]> {
  // Candidates are gathered first (a folder's reading may wait on more than its files); which
  // copy wins is decided afterwards, in load order.
  const look = async (dir: string, scope: DiscoveryScope) => ({ key: canonical(dir), candidate: await readCandidate(resolve(dir), scope) });
  const looks = (options.explicit ?? []).map(async (dir) => {
    const abs = resolve(options.cwd, dir);
    if (isDirectory(abs)) return look(abs, "explicit");
    const candidate: Candidate = { dir: abs, scope: "explicit", name: dir, decision: "error", warnings: [],
      error: `${abs}: not a directory (--ext expects an extension folder)` };
    return { key: canonical(abs), candidate };
  });
  if (options.discover !== false) {
    const [mcpJson, projectHooks, userHooks] = await Promise.all([
      mcpJsonCandidates(resolve(options.cwd)), projectHookCandidates(resolve(options.cwd)), userHooksCandidate(options.paths.config),
    ]);
    const project = scanRoot(projectExtensionsDir(resolve(options.cwd)));
    const global = scanRoot(resolve(options.paths.extensions));
    const fromFile = (c: Candidate) => Promise.resolve({ key: `${c.source}#${c.name}`, candidate: c });
    looks.push(...project.map((dir) => look(dir, "project")), ...mcpJson, ...projectHooks.map(fromFile),
      ...projectCommandCandidates(resolve(options.cwd)).map(fromFile),
      ...global.map((dir) => look(dir, "global")), ...(userHooks ? [fromFile(userHooks)] : []),
      ...userCommandCandidates(options.paths.home, options.home).map(fromFile));
  }
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const { key, candidate } of await Promise.all(looks)) {
    if (seen.has(key)) continue; // the same folder named twice (or project root == global root)
    seen.add(key);
    candidates.push(candidate, ...pluginMcpCandidates(candidate));
  }
  // The gate's answers first, concurrently (a project extension's folder content is hashed).
  const gate = options.trust;
  const problems = new Map<Candidate, TrustProblem | undefined>();
  if (gate) await Promise.all(candidates.filter(gated).map(async (c) => problems.set(c, await gate(c))));
  decide(candidates, problems);
  return candidates;
}

/**
 * A candidate the trust gate decides on: one that would run code, and every bundle of the project
 * (a cloned repository's themes and skills wait for trust like its code).
 */
const gated = (c: Candidate) => c.loaded !== undefined && c.decision !== "error" && (runsAsExtension(c.loaded.kind) || c.scope === "project")
  && (c.loaded.enabled || c.scope === "explicit");

/**
 * Applies enabled state, bundle kinds, the trust gate and name claiming to candidates in load
 * order. Only a copy that will be used claims its name: a disabled copy, or one the trust gate
 * holds back (project-local code of any kind passes the same gate), never shadows another, so a
 * cloned repository cannot switch off a global extension by naming a folder after it. Code that
 * runs claims first: a bundle that runs no program (themes, skills) never takes the name of one
 * that does, wherever it stands in the order. A name that differs from a claimed one only by case
 * is refused: it would share the claimed one's folders on a case-insensitive file system and pass
 * for it in every listing.
 */
function decide(candidates: Candidate[], problems: ReadonlyMap<Candidate, TrustProblem | undefined>): void {
  for (const c of candidates) if (c.loaded && c.decision !== "error") c.decision = ownDecision(c, problems.get(c));
  const claimedBy = new Map<string, Candidate>();
  const order = new Map(candidates.map((c, i) => [c, i]));
  const earlier = (a: Candidate, b: Candidate) => order.get(a)! < order.get(b)!;
  /**
   * Gives `c` its name (`takes`) unless a copy that outranks it holds it. A copy that takes
   * nothing (disabled, untrusted) is only ever shadowed by the copies before it.
   */
  const claim = (c: Candidate, takes: boolean): void => {
    const owner = claimedBy.get(nameKey(c.name));
    if (!owner) {
      if (takes) claimedBy.set(nameKey(c.name), c);
      return;
    }
    if (!takes && !earlier(owner, c)) return;
    if (owner.name !== c.name) {
      c.decision = "error";
      c.error = `${join(c.dir, MANIFEST_FILE)}: name "${c.name}" differs only by case from "${owner.name}" in ${owner.dir}; rename one of them`;
    } else if (earlier(owner, c)) {
      c.decision = "shadowed";
      c.shadowedBy = owner.dir;
    } else if (takes) {
      c.decision = "error";
      c.error = `${join(c.dir, MANIFEST_FILE)}: name "${c.name}" is taken by the extension in ${owner.source ?? owner.dir}, which runs a program; `
        + "a bundle that runs none never replaces one that does; rename it";
    }
  };
  for (const c of candidates) if (c.decision === "spawn") claim(c, true);
  for (const c of candidates) if (c.decision === "bundle") claim(c, true);
  for (const c of candidates) if (c.decision === "disabled" || c.decision === "untrusted") claim(c, false);
}

/** A candidate's decision on its own: enabled state, bundle kind and the trust gate's answer. */
function ownDecision(c: Candidate, problem: TrustProblem | undefined): Candidate["decision"] {
  // `enabled: false` applies to every kind: a disabled skills or theme bundle contributes nothing.
  if (!c.loaded!.enabled) {
    // An explicit path is a request to load this folder now, so it overrides `enabled: false`.
    if (c.scope !== "explicit") return "disabled";
    c.warnings.push("enabled is false in extension.json; loaded because it was passed with --ext");
  }
  if (problem) {
    c.trust = problem;
    return "untrusted";
  }
  return runsAsExtension(c.loaded!.kind) ? "spawn" : "bundle";
}
