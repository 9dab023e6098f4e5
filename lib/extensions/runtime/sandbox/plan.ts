// What an OS sandbox gives one extension, independent of the mechanism (bubblewrap, sandbox-exec):
// the folders it may read, the folders it may write, and whether it has a network. Built from the
// manifest's `fs` and `network` scopes plus what any extension needs to run at all: the system's
// programs and libraries, its interpreter, zot's SDKs, its own folder (read-only unless granted)
// and its data folder.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { PermissionGrant, PlaceholderValues } from "../../catalog/permissions/manifest-permissions.ts";
import { resolveGrant } from "./grant-paths.ts";
import type { RootOnlyEntries } from "./root-only.ts";

/** System folders every sandboxed program reads (programs, libraries, configuration). */
export const LINUX_SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];
export const MACOS_SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/etc", "/opt/homebrew",
  "/usr/local", "/private/var/db/timezone", "/dev"];

export interface SandboxPlan {
  /** Folders and files visible read-only, in mount order. */
  readOnly: string[];
  /** Folders and files visible read-write (mounted after the read-only ones, so they win). */
  readWrite: string[];
  /** False: no network at all (Linux: an empty network namespace). */
  network: boolean;
  /** The working directory inside the sandbox. */
  cwd: string;
  /** Said in the extension's log when it starts (for example, a host list that is not enforced). */
  warnings: string[];
  /** Host files and folders covered inside (what only root may read, when zot runs as root). */
  hidden: RootOnlyEntries;
  /**
   * zot's own folders ($ZOT_HOME: keys, trust, settings, sessions, other extensions) that a grant
   * would show (`{project}` started in the home folder, `~`, `/`): covered with an empty folder,
   * with what the plan itself mounts inside them (its data folder, its own folder, the SDK) shown again.
   */
  masked: string[];
}

export interface SandboxContext {
  /** The extension's folder. */
  dir: string;
  /** Where it persists state (hello_ack's data_dir): always writable. */
  dataDir: string;
  /** The project (zot's working directory). */
  project: string;
  /** The temporary folder `{temp}` stands for. */
  temp: string;
  home: string;
  /** Real paths of the programs it runs (programsToMount: exec, its #! interpreter, env's program). */
  programs: string[];
  /** Folders of zot's own SDKs (Python). */
  sdkDirs: string[];
  /** Single-file programs mounted alone (the bun zot carries is a self-contained binary). */
  files?: string[];
  /** Folders a program's installation folder must never contain ($ZOT_HOME: credentials). */
  privateDirs?: string[];
  /** What only root may read in the system folders (rootOnlyEntries), to be hidden. */
  rootOnly?: RootOnlyEntries;
}

/**
 * The folder a program's installation lives in: `<prefix>` for `<prefix>/bin/node` (and for
 * version-manager shims such as `~/.pyenv/shims/python3`), else the program's own folder.
 */
export function installPrefix(program: string): string {
  let real = program;
  try {
    real = realpathSync(program);
  } catch {
    // a program that does not exist fails to start and says so
  }
  const folder = dirname(real);
  return ["bin", "shims"].includes(basename(folder)) ? dirname(folder) : folder;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const isUnder = (path: string, roots: string[]) => roots.some((root) => root === "/" || path === root || path.startsWith(`${root}/`));

/** Sandbox plan for an extension whose manifest declares permissions. */
export function planSandbox(grant: PermissionGrant, context: SandboxContext, systemPaths = LINUX_SYSTEM_PATHS): SandboxPlan {
  const values: PlaceholderValues = {
    extension: context.dir, project: context.project, temp: context.temp, data: context.dataDir, home: context.home,
  };
  const warnings: string[] = [];
  const readOnly = [...systemPaths];
  // An installation folder that is the home folder, ~/.local or a parent of zot's own state would
  // show far more than a program: then only the program itself is mounted.
  const tooWide = (prefix: string) => prefix === "/" || prefix === context.home || prefix === `${context.home}/.local`
    || [context.home, ...(context.privateDirs ?? [])].some((dir) => isUnder(dir, [prefix]));
  for (const program of context.programs) {
    const prefix = installPrefix(program);
    if (isUnder(prefix, systemPaths)) continue;
    readOnly.push(tooWide(prefix) ? realOrSelf(program) : prefix);
  }
  readOnly.push(...(context.files ?? []).map(realOrSelf));
  readOnly.push(...context.sdkDirs.map(realOrSelf), realOrSelf(context.dir));
  // Write grants first: a symlink inside a folder the sandbox can write is never followed.
  const readWrite = [realOrSelf(context.dataDir)];
  const grants: string[] = [];
  const mount = (path: string, into: string[]) => {
    const resolved = resolveGrant(path, values, readWrite);
    if (!resolved.path) return void warnings.push(resolved.refused!);
    into.push(resolved.path);
    grants.push(resolved.path);
  };
  for (const path of grant.fs?.write ?? []) mount(path, readWrite);
  for (const path of grant.fs?.read ?? []) mount(path, readOnly);
  const network = grant.network === "all";
  if (Array.isArray(grant.network) && grant.network.length > 0) {
    warnings.push(`network lists hosts (${grant.network.join(", ")}), which zot's sandbox cannot enforce; `
      + `the extension runs without network. Declare "network": "all" to allow every host`);
  }
  const masked = (context.privateDirs ?? []).map(realOrSelf).filter((dir) => grants.some((path) => isUnder(dir, [path])));
  return { readOnly: unique(readOnly), readWrite: unique(readWrite), network, cwd: realOrSelf(context.dir), warnings,
    hidden: context.rootOnly ?? { files: [], dirs: [] }, masked };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** Paths of a plan that exist; a missing grant is not an error (the extension just cannot see it). */
export const existing = (paths: string[]) => paths.filter((path) => existsSync(path));
