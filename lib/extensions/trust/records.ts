// Writing grants: approving (install, `zot ext trust`), revoking, and trusting a project.
import type { ZotPaths } from "../../paths.ts";
import type { Manifest } from "../manifest.ts";
import { projectKey } from "./gate.ts";
import { grantRecord, updateTrust } from "./store.ts";

/** Records the user's approval of a global extension's manifest as it is now. */
export async function approveExtension(paths: ZotPaths, manifest: Manifest): Promise<void> {
  await updateTrust(paths, (trust) => void (trust.extensions[manifest.name] = grantRecord(manifest)));
}

/** Withdraws a global extension's grant: it does not start until approved again. */
export async function revokeExtension(paths: ZotPaths, manifest: Manifest): Promise<void> {
  await updateTrust(paths, (trust) => void (trust.extensions[manifest.name] = { ...grantRecord(manifest), revoked: true }));
}

/**
 * Trusts project `cwd` with these extensions, pinned to their manifests as they are now. With
 * `merge`, the project's other records are kept (trusting one extension of it).
 */
export async function trustProject(paths: ZotPaths, cwd: string, manifests: Manifest[], merge = false): Promise<void> {
  await updateTrust(paths, (trust) => {
    const key = projectKey(cwd);
    const extensions = merge ? { ...trust.projects[key]?.extensions } : {};
    for (const manifest of manifests) extensions[manifest.name] = grantRecord(manifest);
    trust.projects[key] = { approved_at: new Date().toISOString(), extensions };
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
