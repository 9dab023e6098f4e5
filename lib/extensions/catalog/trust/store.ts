// `$ZOT_HOME/trust.json`: the grants the user gave. Global extensions: one record per name,
// written by `zot ext install` and `zot ext trust NAME` (or a revocation). Projects: one record per
// project folder, listing the extensions the user saw and trusted there. Each extension record
// pins the manifest's permissions and a hash of the manifest.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../../fs/atomic-write.ts";
import { canonicalJson } from "../../../protocol/json-object.ts";
import type { ZotPaths } from "../../../paths.ts";
import type { Manifest } from "../manifest.ts";
import type { ManifestPermissions } from "../permissions/manifest-permissions.ts";
import { sha256Hex } from "../../../lazy-node.ts";

export interface ExtensionGrantRecord {
  manifest_sha256: string;
  /** A project extension's folder content when trusted (content.ts); its entries are kept in trustedContentPath. */
  content_sha256?: string;
  /** The manifest's permissions when approved; null: it declared none (full access). */
  permissions: ManifestPermissions | null;
  approved_at: string;
  /** `zot ext trust NAME --revoke`: it does not start until approved again. */
  revoked?: boolean;
}

export interface ProjectTrustRecord {
  approved_at: string;
  extensions: Record<string, ExtensionGrantRecord>;
  /** Its ./.zot/agents type files when trusted: file name → sha256 of the text. */
  agents?: Record<string, string>;
  /** Its ./.zot/skills SKILL.md files when trusted: path below that folder → sha256 of the text. */
  skills?: Record<string, string>;
}

export interface TrustFile {
  version: 1;
  extensions: Record<string, ExtensionGrantRecord>;
  projects: Record<string, ProjectTrustRecord>;
}

export const trustFilePath = (paths: Pick<ZotPaths, "home">) => join(paths.home, "trust.json");

const empty = (): TrustFile => ({ version: 1, extensions: {}, projects: {} });

export function manifestHash(manifest: Manifest | Record<string, unknown>): string {
  return sha256Hex(JSON.stringify(canonicalJson(manifest)));
}

export function grantRecord(manifest: Manifest, now = new Date(), contentSha256?: string): ExtensionGrantRecord {
  return { manifest_sha256: manifestHash(manifest), ...(contentSha256 ? { content_sha256: contentSha256 } : {}),
    permissions: manifest.permissions ?? null, approved_at: now.toISOString() };
}

/** Where the entries of trusted folder content are kept, to say what changed since. */
export const trustedContentPath = (paths: ZotPaths, digest: string) => join(paths.home, "trust-content", `${digest}.json`);
/** The cache of file hashes content.ts keeps. */
export const contentCachePath = (paths: ZotPaths) => join(paths.home, "cache", "content.json");

/**
 * Reads trust.json. A missing file is an empty one; an unreadable or malformed one is an error
 * (zot must not treat a damaged record of grants as "nothing was ever revoked").
 */
export async function readTrust(paths: Pick<ZotPaths, "home">): Promise<TrustFile> {
  const path = trustFilePath(paths);
  let text: string;
  try {
    text = readFileSync(path, "utf8"); // small: see config.ts
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return empty();
    throw new Error(`${path}: cannot read: ${(err as Error).message}`);
  }
  let data: Partial<TrustFile>;
  try {
    data = JSON.parse(text) as Partial<TrustFile>;
  } catch (err) {
    throw new Error(`${path}: invalid JSON: ${(err as Error).message}; fix or delete it (deleting it forgets every approval)`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error(`${path}: must hold a JSON object`);
  return { version: 1, extensions: { ...data.extensions }, projects: { ...data.projects } };
}

/** Read, change, write back (atomically). */
export async function updateTrust(paths: ZotPaths, change: (trust: TrustFile) => void): Promise<TrustFile> {
  const trust = await readTrust(paths);
  change(trust);
  await writeFileAtomic(trustFilePath(paths), `${JSON.stringify(trust, null, 2)}\n`);
  return trust;
}
