// Symlink policy for installed trees: a link may only point inside the extension's folder.
// Checked on the staged copy, whatever the source, so nothing installed leads outside it.
import { lstat, readdir, readlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { isInside } from "../../fs/inside.ts";

const MAX_LINK_HOPS = 40;
const SEPARATORS = sep === "/" ? "/" : /[\\/]/;

/** Joins without normalizing: `a/b/..` must be resolved after following `b` if it is a link. */
function append(dir: string, rest: string): string {
  return dir.endsWith(sep) ? dir + rest : dir + sep + rest;
}

/**
 * Resolves a path component by component the way the OS would, following symlinks (relative
 * ones against their own folder) and appending missing components lexically. Returns null when
 * a symlink is absolute or the chain loops: such links are never allowed.
 */
export async function resolveThroughLinks(path: string, hops = { left: MAX_LINK_HOPS }): Promise<string | null> {
  const parts = path.split(SEPARATORS).filter((p) => p !== "");
  let current: string = sep;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === ".") continue;
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    let info;
    try {
      info = await lstat(next);
    } catch {
      current = next;
      continue;
    }
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (--hops.left < 0) return null;
    const target = await readlink(next);
    if (isAbsolute(target)) return null;
    const resolved = await resolveThroughLinks(append(current, target), hops);
    if (resolved === null) return null;
    current = resolved;
  }
  return current;
}

/**
 * Throws naming the first symlink under `root` that is absolute, loops, or resolves outside
 * `root`. `root` must be an absolute, symlink-free path (a real path).
 */
export async function assertLinksInside(root: string, label = root): Promise<void> {
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        pending.push(path);
        continue;
      }
      if (!entry.isSymbolicLink()) continue;
      const target = await readlink(path);
      const resolved = isAbsolute(target) ? null : await resolveThroughLinks(append(dir, target));
      if (resolved === null || !isInside(root, resolved)) {
        throw new Error(`symlink ${relative(root, path)} -> ${target} points outside ${label}; refusing to install it`);
      }
    }
  }
}
