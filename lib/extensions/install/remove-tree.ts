// Deleting an extension folder (remove, a replaced install, a rolled-back staging folder) the
// way `rm -rf` does, but also when it holds read-only folders: Go's module cache, for one, makes
// every folder r-x, and then a non-root user cannot delete the entries inside them.
import { chmodSync, lstatSync, readdirSync, rmSync } from "node:fs";
import { chmod, lstat, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

/** Owner read, write and search: enough to list a folder, enter it and delete its entries. */
const OWNER_RWX = 0o700;
const RETRIED_CODES = new Set(["EACCES", "EPERM"]);

export type RemoveFn = (path: string, options: { recursive: true; force: true }) => Promise<void>;

export interface RemoveTreeOptions {
  /** The removal itself (defaults to node's `rm`); tests inject one that fails first. */
  rm?: RemoveFn;
}

function isPermissionError(err: unknown): boolean {
  return RETRIED_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? "");
}

/**
 * Makes every folder in the tree at `path` owner-readable, -writable and -searchable, parents
 * before children (a parent must be listable to reach its children). Never follows symlinks,
 * leaves files alone, and skips entries it cannot change: the retry reports what still fails.
 */
export async function makeFoldersWritable(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isDirectory()) return;
  if ((info.mode & OWNER_RWX) !== OWNER_RWX) await chmod(path, (info.mode & 0o7777) | OWNER_RWX).catch(() => {});
  const names = await readdir(path).catch(() => [] as string[]);
  for (const name of names) await makeFoldersWritable(join(path, name));
}

/**
 * Removes `path` and everything under it, like `rm -rf` (a missing path is fine; a symlink is
 * removed, not followed). When that fails with EACCES or EPERM, makes the tree's folders
 * writable (see makeFoldersWritable) and tries once more; a second failure is thrown as is.
 */
export async function removeTree(path: string, options: RemoveTreeOptions = {}): Promise<void> {
  const remove: RemoveFn = options.rm ?? ((p, o) => rm(p, o));
  try {
    await remove(path, { recursive: true, force: true });
  } catch (err) {
    if (!isPermissionError(err)) throw err;
    await makeFoldersWritable(path);
    await remove(path, { recursive: true, force: true });
  }
}

/** removeTree for the few places that cannot wait, such as a signal handler about to exit. */
export function removeTreeSync(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (err) {
    if (!isPermissionError(err)) throw err;
    makeFoldersWritableSync(path);
    rmSync(path, { recursive: true, force: true });
  }
}

function makeFoldersWritableSync(path: string): void {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return;
  }
  if (!info.isDirectory()) return;
  try {
    if ((info.mode & OWNER_RWX) !== OWNER_RWX) chmodSync(path, (info.mode & 0o7777) | OWNER_RWX);
  } catch {
    // the retry reports it
  }
  let names: string[] = [];
  try {
    names = readdirSync(path);
  } catch {
    // likewise
  }
  for (const name of names) makeFoldersWritableSync(join(path, name));
}
