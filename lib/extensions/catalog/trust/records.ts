// Writing grants: approving (install, `zot ext trust`), revoking, and trusting a project.
import type { ZotPaths } from "../../../paths.ts";
import type { Manifest } from "../manifest.ts";
import { pinnedFolder, projectKey } from "./gate.ts";
import { realpathSync } from "node:fs";
import { writeFileAtomic } from "../../../fs/atomic-write.ts";
import { ContentCache, execOutside, folderContent } from "./content.ts";
import { contentCachePath, grantRecord, trustedContentPath, updateTrust, type ExtensionGrantRecord } from "./store.ts";

/** Records the user's approval of a global extension's manifest as it is now. */
export async function approveExtension(paths: ZotPaths, manifest: Manifest): Promise<void> {
  await updateTrust(paths, (trust) => void (trust.extensions[manifest.name] = grantRecord(manifest)));
}

/** Withdraws a global extension's grant: it does not start until approved again. */
export async function revokeExtension(paths: ZotPaths, manifest: Manifest): Promise<void> {
  await updateTrust(paths, (trust) => void (trust.extensions[manifest.name] = { ...grantRecord(manifest), revoked: true }));
}

/** A project extension to trust: its manifest, its folder, and the file that declares it instead (.mcp.json). */
export interface TrustedExtension {
  manifest: Manifest;
  dir: string;
  source?: string | undefined;
  pinnedDir?: string | undefined;
}

/**
 * Trusts project `cwd` with these extensions, pinned to their manifests and folder content as
 * they are now (the content's entries are kept, to say later what changed). With `merge`, the
 * project's other records are kept (trusting one extension of it). `files.agents` pins the
 * project's agent type files (file name → sha256), `files.skills` its skill files (path → sha256);
 * absent, the pins recorded before are kept.
 */
export async function trustProject(paths: ZotPaths, cwd: string, trusted: TrustedExtension[], merge = false,
  files: { agents?: Record<string, string>; skills?: Record<string, string> } = {}): Promise<void> {
  const cache = await ContentCache.load(contentCachePath(paths));
  const records = new Map<string, ExtensionGrantRecord>();
  for (const ext of trusted) {
    let digest: string | undefined;
    const pinned = pinnedFolder(ext);
    if (pinned !== undefined) {
      const content = folderContent(realpathSync(pinned), cache, execOutside(ext.dir, ext.manifest.exec));
      await writeFileAtomic(trustedContentPath(paths, content.digest), JSON.stringify(content.entries));
      digest = content.digest;
    }
    records.set(ext.manifest.name, grantRecord(ext.manifest, new Date(), digest));
  }
  await cache.save();
  await updateTrust(paths, (trust) => {
    const key = projectKey(cwd);
    const extensions = merge ? { ...trust.projects[key]?.extensions } : {};
    for (const [name, record] of records) extensions[name] = record;
    const agents = files.agents ?? trust.projects[key]?.agents;
    const skills = files.skills ?? trust.projects[key]?.skills;
    trust.projects[key] = { approved_at: new Date().toISOString(), extensions, ...(agents ? { agents } : {}), ...(skills ? { skills } : {}) };
  });
}

/** Forgets the trust of project `cwd`; returns false when it was not trusted. */
export async function untrustProject(paths: ZotPaths, cwd: string): Promise<boolean> {
  let had = false;
  await updateTrust(paths, (trust) => {
    const key = projectKey(cwd);
    had = key in trust.projects;
    delete trust.projects[key];
  });
  return had;
}
