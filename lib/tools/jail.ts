// Jail: when on, every path a file tool touches must resolve inside the working directory.
// Symlinks are resolved first — also for files that do not exist yet, through their nearest
// existing parent and through dangling links — so neither `..`, an absolute path nor a link can
// lead out. Scope, stated honestly: jail confines the file tools (read, write, edit) and bash's
// working directory only; a bash command can still name any path it likes. A link swapped
// between the check and the access (a race) is not defended against.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { isInside } from "../fs/inside.ts";
import { ToolFailure } from "./failure.ts";

/** Jail may be toggled while tools live (`/jail`, `/unjail`), so a getter is accepted too. */
export type JailSetting = boolean | (() => boolean);

export function jailEnabled(setting: JailSetting | undefined): boolean {
  return typeof setting === "function" ? setting() : setting === true;
}

const MAX_LINK_HOPS = 40;

/**
 * The real location of `path` (absolute): symlinks resolved, and for a path that does not exist
 * yet, its nearest existing parent resolved with the missing tail appended. Dangling links are
 * followed to where a write would create the file.
 */
export function realLocation(path: string, hops = 0): string {
  try {
    return realpathSync(path);
  } catch {
    // fall through: the path (or a link target on the way) does not exist
  }
  if (hops > MAX_LINK_HOPS) return path;
  try {
    if (lstatSync(path).isSymbolicLink()) {
      return realLocation(resolve(dirname(path), readlinkSync(path)), hops + 1);
    }
  } catch {
    // does not exist at all: resolve the parent instead
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return resolve(realLocation(parent, hops), basename(path));
}

export interface JailVerdict {
  allowed: boolean;
  /** Where the path really points. */
  resolved: string;
  /** The real working directory the path was checked against. */
  root: string;
}

export function checkJail(cwd: string, absPath: string): JailVerdict {
  const root = realLocation(resolve(cwd));
  const resolved = realLocation(absPath);
  return { allowed: isInside(root, resolved), resolved, root };
}

/** Throws a `blocked` ToolFailure (details.policy = "jail") when `absPath` escapes `cwd`. */
export function enforceJail(tool: string, cwd: string, requested: string, absPath: string): void {
  const verdict = checkJail(cwd, absPath);
  if (verdict.allowed) return;
  const via = verdict.resolved === absPath ? "" : ` (it resolves to ${verdict.resolved})`;
  throw new ToolFailure(
    `${tool}: blocked by jail: ${requested}${via} is outside the working directory ${verdict.root}. ` +
      "Jail mode confines file tools to the working directory; use a path inside it.",
    "blocked",
    { policy: "jail", path: requested, resolved: verdict.resolved, cwd: verdict.root },
  );
}
