// Whether a discovered extension runs in an OS sandbox, and with what: the host's side of the
// decision (its manifest's permissions, --no-sandbox, where its data folder is).
import { homedir } from "node:os";
import { join } from "node:path";
import type { ZotPaths } from "../../paths.ts";
import type { Candidate } from "../host/discovery.ts";
import type { SpawnRequest } from "../host/spawn.ts";
import { grantFromManifest, needsSandbox } from "../permissions/manifest-permissions.ts";
import { findSandboxProgram, type SandboxOptions } from "./launch.ts";

export interface HostSandboxSettings {
  /** false for --no-sandbox: extensions that ask for a sandbox run without one, with a warning. */
  enabled: boolean;
  /** Where bwrap/sandbox-exec are (tests point these elsewhere). */
  options?: SandboxOptions;
}

/** A sandboxed extension's data_dir: its own folder stays read-only unless its grant says otherwise. */
export function sandboxDataDir(paths: ZotPaths, name: string): string {
  return join(paths.home, "extension-data", name.replace(/[^A-Za-z0-9._-]/g, "_"));
}

/**
 * How to sandbox `candidate`'s process. Asynchronous: the first sandboxed start of a process
 * waits for the bubblewrap probe, and the event loop keeps running meanwhile.
 */
export async function sandboxForCandidate(candidate: Candidate, settings: HostSandboxSettings, where: { cwd: string; paths: ZotPaths }):
  Promise<SpawnRequest["sandbox"]> {
  const grant = grantFromManifest(candidate.loaded?.manifest.permissions);
  if (!needsSandbox(grant)) return undefined;
  if (!settings.enabled) return { disabled: true };
  const program = await findSandboxProgram(grant, settings.options);
  return { grant, program, dataDir: sandboxDataDir(where.paths, candidate.name), project: where.cwd, home: homedir(), privateDirs: [where.paths.home],
    ...(settings.options ? { options: settings.options } : {}) };
}
