// How a discovered extension's process is isolated, the host's side of the decision: its
// manifest's permissions, --no-sandbox, what this machine offers and where its data folder is.
// An extension that declares permissions is confined to them; one that declares none has full
// access, in a PID namespace of its own where the machine has one.
import { homedir } from "node:os";
import { join } from "node:path";
import { extensionFileName, type ZotPaths } from "../../../paths.ts";
import type { Candidate } from "../../catalog/candidate.ts";
import { grantFromManifest, type PermissionGrant } from "../../catalog/permissions/manifest-permissions.ts";
import { projectKey } from "../../catalog/trust/gate.ts";
import { findIsolation, findSandboxProgram, type SandboxOptions, type SandboxProgram } from "./launch.ts";
import { rootOnlyEntries, type RootOnlyEntries } from "./root-only.ts";
import { sha256Hex } from "../../../lazy-node.ts";

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
  | { kind: "isolated"; bwrap: string; dataDir: string }
  /** Full access, no PID namespace: why (no bubblewrap, not Linux, --no-sandbox). */
  | { kind: "none"; why: string; dataDir: string }
  /** Declared permissions, but --no-sandbox runs it unconfined (it still gets the variables they name). */
  | { kind: "disabled"; dataDir: string; env: string[] };

/** Folders of `extension-data/` that are not a global extension's: a global extension of that name gets its own, escaped. */
const RESERVED_DATA_FOLDERS = new Set(["projects"]);

/** The folder name of a global extension's data: its file name, with a reserved name's first letter escaped (`projects` → `%70rojects`). */
function globalDataFolder(name: string): string {
  const file = extensionFileName(name);
  if (!RESERVED_DATA_FOLDERS.has(file.toLowerCase())) return file;
  return `%${file.charCodeAt(0).toString(16).toUpperCase()}${file.slice(1)}`;
}

/**
 * hello_ack's data_dir. A project's extensions keep their state in a folder of that project's
 * under `$ZOT_HOME/extension-data/projects/`, outside the code the project's trust is pinned to
 * (and apart from any other project's, or a global extension's of the same name). A global or
 * --ext extension in a sandbox gets `extension-data/<name>` (one name to one folder, never
 * `projects`; its own folder stays read-only);
 * one with full access keeps its own folder, as the protocol describes.
 */
export function extensionDataDir(paths: ZotPaths, candidate: Pick<Candidate, "name" | "dir" | "scope">, cwd: string, confined: boolean): string {
  if (candidate.scope === "project") return join(paths.home, "extension-data", "projects", projectDataKey(cwd), extensionFileName(candidate.name));
  return confined ? join(paths.home, "extension-data", globalDataFolder(candidate.name)) : candidate.dir;
}

/** A short, stable folder name for a project (its real path hashed). */
function projectDataKey(cwd: string): string {
  return sha256Hex(projectKey(cwd)).slice(0, 16);
}

/**
 * How to start `candidate`'s process. Asynchronous: the first start of a process waits for the
 * bubblewrap probe, and the event loop keeps running meanwhile.
 */
export async function isolationFor(candidate: Candidate, settings: HostSandboxSettings, where: { cwd: string; paths: ZotPaths }): Promise<Isolation> {
  const grant = grantFromManifest(candidate.loaded?.manifest.permissions);
  const dataDir = extensionDataDir(where.paths, candidate, where.cwd, !grant.full && settings.enabled);
  if (grant.full) {
    if (!settings.enabled) return { kind: "none", why: "--no-sandbox", dataDir };
    const found = await findIsolation(settings.options);
    return "bwrap" in found ? { kind: "isolated", bwrap: found.bwrap, dataDir } : { kind: "none", why: found.unavailable, dataDir };
  }
  if (!settings.enabled) return { kind: "disabled", dataDir, env: grant.env ?? [] };
  const [program, rootOnly] = await Promise.all([findSandboxProgram(settings.options), rootOnlyEntries()]);
  return { kind: "confined", grant, program, dataDir, project: where.cwd, home: homedir(),
    privateDirs: [where.paths.home], rootOnly, ...(settings.options ? { options: settings.options } : {}) };
}
