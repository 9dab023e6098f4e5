// Recursive copy of a local extension folder into a staging folder.
import { chmod, copyFile, lstat, mkdir, readdir, readlink, realpath, symlink } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";

export interface CopyOptions {
  /** Told about entries that are not copied (sockets, fifos, devices). */
  onSkip?: (path: string, reason: string) => void;
}

/** Entries never copied: version-control metadata is not part of an install. */
const SKIPPED_NAMES = new Set([".git"]);

/**
 * Copies the contents of `from` into the existing empty folder `to`: files with their
 * permission bits, folders, and relative symlinks as links (the caller checks they stay inside
 * with `assertLinksInside`). Skips every `.git` entry; `node_modules` and everything else is
 * copied. Absolute symlinks are refused. A source that contains `to` does not copy `to` into
 * itself.
 */
export async function copyFolder(from: string, to: string, options: CopyOptions = {}): Promise<void> {
  const stagingReal = await realpath(to);
  await copyEntries(from, to, from, stagingReal, options);
}

async function copyEntries(
  from: string,
  to: string,
  sourceRoot: string,
  stagingReal: string,
  options: CopyOptions,
): Promise<void> {
  for (const name of await readdir(from)) {
    if (SKIPPED_NAMES.has(name)) continue;
    const src = join(from, name);
    const dest = join(to, name);
    const info = await lstat(src);
    if (info.isSymbolicLink()) {
      const target = await readlink(src);
      if (isAbsolute(target)) {
        throw new Error(`symlink ${relative(sourceRoot, src)} -> ${target} is absolute; only links inside the folder can be installed`);
      }
      await symlink(target, dest);
    } else if (info.isDirectory()) {
      if ((await realpath(src)) === stagingReal) continue;
      await mkdir(dest);
      await copyEntries(src, dest, sourceRoot, stagingReal, options);
      await chmod(dest, info.mode & 0o7777);
    } else if (info.isFile()) {
      await copyFile(src, dest);
      await chmod(dest, info.mode & 0o7777);
    } else {
      options.onSkip?.(relative(sourceRoot, src), "not a regular file, folder or symlink");
    }
  }
}
