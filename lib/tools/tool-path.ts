// Turns a path argument into the absolute path a tool will use: `~` is the home directory,
// relative paths resolve against the tool's cwd, and jail (when on) is enforced on the result.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { FileAccess } from "./file-access.ts";
import { enforceJail, jailEnabled, type JailSetting } from "./jail.ts";

export interface PathOptions {
  cwd: string;
  jail?: JailSetting;
  /** Defaults to the user's home directory; tests pass their own. */
  home?: string;
  /** Where file contents are read and written (default: the disk). */
  files?: FileAccess;
}

/** `~` and `~/x` expand to the home directory (`~user` is left alone); the rest resolves against cwd. */
export function expandPath(raw: string, cwd: string, home: string = homedir()): string {
  let path = raw;
  if (path === "~") path = home;
  else if (path.startsWith("~/") || path.startsWith("~\\")) path = join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** The absolute path for a tool's `path` argument; throws the jail's `blocked` failure. */
export function resolveToolPath(tool: string, raw: string, options: PathOptions): string {
  const abs = expandPath(raw, options.cwd, options.home);
  if (jailEnabled(options.jail)) enforceJail(tool, options.cwd, raw, abs);
  return abs;
}
