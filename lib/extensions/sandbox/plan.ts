// What an OS sandbox gives one extension, independent of the mechanism (bubblewrap, sandbox-exec):
// the folders it may read, the folders it may write, and whether it has a network. Built from the
// manifest's `fs` and `network` scopes plus what any extension needs to run at all: the system's
// programs and libraries, its interpreter, zot's SDKs, its own folder (read-only unless granted)
// and its data folder.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { expandFsPath, type PermissionGrant, type PlaceholderValues } from "../permissions/manifest-permissions.ts";

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
  /** Programs it runs by absolute path (exec, its #! interpreter, the bun zot carries). */
  programs: string[];
  /** Folders of zot's own SDKs (Python). */
  sdkDirs: string[];
  /** Single-file programs mounted alone (the bun zot carries is a self-contained binary). */
  files?: string[];
  /** Folders a program's installation folder must never contain ($ZOT_HOME: credentials). */
  privateDirs?: string[];
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

const isUnder = (path: string, roots: string[]) => roots.some((root) => path === root || path.startsWith(`${root}/`));

/** Sandbox plan for an extension whose manifest declares `fs` or `network`. */
export function planSandbox(grant: PermissionGrant, context: SandboxContext, systemPaths = LINUX_SYSTEM_PATHS): SandboxPlan {
  const values: PlaceholderValues = {
    extension: context.dir, project: context.project, temp: context.temp, data: context.dataDir, home: context.home,
  };
  const warnings: string[] = [];
  const expand = (path: string) => {
    const expanded = expandFsPath(path, values);
    if (isAbsolute(expanded)) return resolve(expanded);
    warnings.push(`fs path "${path}" is neither absolute nor starts with a placeholder; ignored`);
    return undefined;
  };
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
  readOnly.push(...context.sdkDirs, context.dir);
  for (const path of grant.fs?.read ?? []) {
    const expanded = expand(path);
    if (expanded) readOnly.push(expanded);
  }
  const readWrite = [context.dataDir];
  for (const path of grant.fs?.write ?? []) {
    const expanded = expand(path);
    if (expanded) readWrite.push(expanded);
  }
  const network = grant.network === "all";
  if (Array.isArray(grant.network) && grant.network.length > 0) {
    warnings.push(`network lists hosts (${grant.network.join(", ")}), which zot's sandbox cannot enforce; `
      + `the extension runs without network. Declare "network": "all" to allow every host`);
  }
  return { readOnly: unique(readOnly), readWrite: unique(readWrite), network, cwd: context.dir, warnings };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** Paths of a plan that exist; a missing grant is not an error (the extension just cannot see it). */
export const existing = (paths: string[]) => paths.filter((path) => existsSync(path));
