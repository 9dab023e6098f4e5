// How a discovered extension's process is isolated, the host's side of the decision: its
// manifest's permissions, --no-sandbox, what this machine offers and where its data folder is.
// An extension that declares permissions is confined to them; one that declares none has full
// access, in a PID namespace of its own where the machine has one.
import { homedir } from "node:os";
import { join } from "node:path";
import type { ZotPaths } from "../../paths.ts";
import type { Candidate } from "../host/discovery.ts";
import { grantFromManifest, type PermissionGrant } from "../permissions/manifest-permissions.ts";
import { findIsolation, findSandboxProgram, type SandboxOptions, type SandboxProgram } from "./launch.ts";
import { rootOnlyEntries, type RootOnlyEntries } from "./root-only.ts";

export interface HostSandboxSettings {
  /** false for --no-sandbox: every extension runs as it is (declared permissions with a warning). */
  enabled: boolean;
  /** Where bwrap/sandbox-exec are (tests point these elsewhere). */
  options?: SandboxOptions;
}

/** How one extension's process is started. */
export type Isolation =
  /** Declared permissions: an OS sandbox built from them, with `program` (which may say there is none). */
  | { kind: "confined"; grant: PermissionGrant; program: SandboxProgram; dataDir: string; project: string; home: string;
    privateDirs: string[]; rootOnly: RootOnlyEntries; options?: SandboxOptions }
  /** Full access in a PID namespace of its own. */
  | { kind: "isolated"; bwrap: string }
  /** Full access, no PID namespace: why (no bubblewrap, not Linux, --no-sandbox). */
  | { kind: "none"; why: string }
  /** Declared permissions, but --no-sandbox runs it unconfined. */
  | { kind: "disabled" };

/** A sandboxed extension's data_dir: its own folder stays read-only unless its grant says otherwise. */
export function sandboxDataDir(paths: ZotPaths, name: string): string {
  return join(paths.home, "extension-data", name.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/**
 * How to start `candidate`'s process. Asynchronous: the first start of a process waits for the
 * bubblewrap probe, and the event loop keeps running meanwhile.
 */
export async function isolationFor(candidate: Candidate, settings: HostSandboxSettings, where: { cwd: string; paths: ZotPaths }): Promise<Isolation> {
  const grant = grantFromManifest(candidate.loaded?.manifest.permissions);
  if (grant.full) {
    if (!settings.enabled) return { kind: "none", why: "--no-sandbox" };
    const found = await findIsolation(settings.options);
    return "bwrap" in found ? { kind: "isolated", bwrap: found.bwrap } : { kind: "none", why: found.unavailable };
  }
  if (!settings.enabled) return { kind: "disabled" };
  const [program, rootOnly] = await Promise.all([findSandboxProgram(settings.options), rootOnlyEntries()]);
  return { kind: "confined", grant, program, dataDir: sandboxDataDir(where.paths, candidate.name), project: where.cwd, home: homedir(),
    privateDirs: [where.paths.home], rootOnly, ...(settings.options ? { options: settings.options } : {}) };
}
