// The host folders an `fs` grant mounts, resolved before anything is bound. A grant is mounted at
// its real path; one that leaves the folder its placeholder stands for once symlinks are
// followed (`{extension}/link -> ../../root`), or that passes through a symlink inside a folder
// the sandbox can write (a link the extension made in its data folder on an earlier run), is
// refused with a warning instead of mounted.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { isInside } from "../../../fs/inside.ts";
import { expandFsPath, type PlaceholderValues } from "../../catalog/permissions/manifest-permissions.ts";

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The folder a grant path is relative to: its placeholder's value, or "/" for an absolute path. */
function rootOf(path: string, values: PlaceholderValues): string {
  if (path === "~" || path.startsWith("~/")) return values.home;
  const match = /^\{(extension|project|temp|data)\}/.exec(path);
  return match ? values[match[1] as keyof Omit<PlaceholderValues, "home">] : sep;
}

/**
 * Follows `path` component by component as the kernel would; returns the real path and the
 * symlinks it went through (their own paths), or undefined for a loop.
 */
function walk(path: string): { real: string; links: string[] } | undefined {
  const links: string[] = [];
  let pending = resolve(path).split(sep).filter(Boolean);
  let current: string = sep;
  for (let hops = 0; pending.length > 0;) {
    const part = pending.shift()!;
    const next = join(current, part);
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // a missing component: the rest is lexical
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > 40) return undefined;
    links.push(next);
    const target = readlinkSync(next);
    pending = [...target.split(sep).filter(Boolean), ...pending];
    // A relative target resolves against the link's own folder, `current`; `..` climbs as `join` goes.
    if (isAbsolute(target)) current = sep;
  }
  return { real: current, links };
}

export interface ResolvedGrant {
  /** The real path to mount, when the grant may be mounted. */
  path?: string;
  /** Why it is not mounted. */
  refused?: string;
}

/**
 * Resolves one `fs` path as written in the manifest. `writable` are the real folders the sandbox
 * can write: a symlink inside one of them may have been made by the extension and is never followed.
 */
export function resolveGrant(written: string, values: PlaceholderValues, writable: string[]): ResolvedGrant {
  const expanded = expandFsPath(written, values);
  if (!isAbsolute(expanded)) return { refused: `fs path "${written}" is neither absolute nor starts with a placeholder; ignored` };
  const walked = walk(expanded);
  if (!walked) return { refused: `fs path "${written}" goes through a symlink loop; not mounted` };
  const root = realOrResolved(rootOf(written, values));
  if (!isInside(root, walked.real)) {
    return { refused: `fs path "${written}" resolves to ${walked.real} through a symlink, outside ${root}; not mounted` };
  }
  const planted = walked.links.find((link) => writable.some((dir) => isInside(dir, dirname(link))));
  if (planted) return { refused: `fs path "${written}" goes through the symlink ${planted} in a folder the extension can write; not mounted` };
  return { path: walked.real };
}
