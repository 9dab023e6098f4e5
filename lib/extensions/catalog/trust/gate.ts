// The trust gate of discovery: which candidates may start, from one reading of trust.json.
// - `--ext` paths: always (the user asked for them by path).
// - Global extensions: as today, unless a recorded grant went stale (the manifest now asks for
//   more than was approved) or was revoked.
// - Project-local ones (and any other kind discovery finds in the project): only when the user
//   trusted this project and its record pins this very manifest (same hash) and this very folder
//   content (content.ts): an edit to any of its files asks again, saying what changed.
import { realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Candidate, TrustProblem } from "../candidate.ts";
import { runsAsExtension } from "../manifest.ts";
import { widenedScopes } from "./compare.ts";
import type { ZotPaths } from "../../../paths.ts";
import { ContentCache, describeChanges, execOutside, folderContent, type ContentEntry } from "./content.ts";
import { contentCachePath, manifestHash, trustedContentPath, type ExtensionGrantRecord, type TrustFile } from "./store.ts";

/** Decides one candidate; undefined: it may start. */
export type TrustGate = (candidate: Candidate) => Promise<TrustProblem | undefined>;

export function projectKey(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

export const PROJECT_TRUST_HINT = "review it and run `zot ext trust --project` (or pass --trust-project for this run)";

export interface GateOptions {
  cwd: string;
  /** --trust-project: this run starts the project's extensions without a record. */
  trustProject?: boolean;
  /** Where the content cache and trusted content entries are (absent: content is hashed without a cache). */
  paths?: ZotPaths;
}

/** What the folder of a project extension holds now, compared with what was trusted: undefined when the same. */
async function contentChange(candidate: Candidate, record: ExtensionGrantRecord, options: GateOptions, cache: () => Promise<ContentCache>):
  Promise<string | undefined> {
  // An .mcp.json server: its entry is the manifest, already pinned; a settings file's hooks pin their scripts' folder.
  const pinned = pinnedFolder(candidate);
  if (pinned === undefined) return undefined;
  if (!record.content_sha256) return "it was trusted before zot pinned the content of extension folders";
  let now;
  try {
    const c = await cache();
    now = folderContent(realpathSync(pinned), c, execOutside(candidate.dir, candidate.loaded?.manifest.exec));
    await c.save();
  } catch (err) {
    return `its folder cannot be read (${(err as Error).message})`;
  }
  if (now.digest === record.content_sha256) return undefined;
  let before: ContentEntry[] = [];
  try {
    if (options.paths) before = JSON.parse(await readFile(trustedContentPath(options.paths, record.content_sha256), "utf8")) as ContentEntry[];
  } catch {
    return "its files changed since you trusted this project";
  }
  return `its files changed since you trusted this project (${describeChanges(before, now.entries)})`;
}

/** The folder whose content trust pins for a candidate: its own, or for one from a file, the folder named with it. */
export function pinnedFolder(c: { dir: string; source?: string | undefined; pinnedDir?: string | undefined }): string | undefined {
  return c.source ? c.pinnedDir : c.dir;
}

export function trustGate(trust: TrustFile, options: GateOptions): TrustGate {
  const project = trust.projects[projectKey(options.cwd)];
  let loaded: Promise<ContentCache> | undefined;
  const cache = () => (loaded ??= options.paths ? ContentCache.load(contentCachePath(options.paths)) : Promise.resolve(new ContentCache()));
  return async (candidate) => {
    if (candidate.scope === "explicit" || !candidate.loaded) return undefined;
    // Hashed only against a record: a run without recorded grants never loads node:crypto.
    const hash = () => manifestHash(candidate.loaded!.manifest);
    if (candidate.scope === "project") {
      if (options.trustProject) return undefined;
      const record = project?.extensions[candidate.name];
      const why = !project ? "this project has not been trusted"
        : !record ? "it was added after you trusted this project"
        : record.manifest_sha256 !== hash() ? "its extension.json changed since you trusted this project"
        : await contentChange(candidate, record, options, cache);
      if (why === undefined) return undefined;
      const held = runsAsExtension(candidate.loaded.kind) ? `project extension "${candidate.name}" is not started`
        : `project ${candidate.loaded.kind} bundle "${candidate.name}" is not used`;
      return { kind: "project", message: `${held}: ${why}; ${PROJECT_TRUST_HINT}` };
    }
    const record = trust.extensions[candidate.name];
    if (!record) return undefined; // placed by hand: it starts with what its manifest declares
    const approve = `run \`zot ext trust ${candidate.name}\` to approve it`;
    if (record.revoked) return { kind: "grant", message: `needs approval: its grant was revoked; ${approve}` };
    if (record.manifest_sha256 === hash()) return undefined;
    const more = widenedScopes(candidate.loaded.manifest.permissions, record.permissions);
    if (more.length === 0) return undefined;
    return { kind: "grant", message: `needs approval: its extension.json now asks for more than you approved (${more.join(", ")}); review it and ${approve}` };
  };
}
