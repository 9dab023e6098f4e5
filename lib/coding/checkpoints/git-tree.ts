// The few git questions checkpoints ask, read-only: where the work tree is, the HEAD commit, which
// files differ from it (changed, deleted, untracked; ignored ones are not), and a file's content
// at a commit. Nothing here changes the index, HEAD or any ref.
import { execFile } from "node:child_process";
import { join } from "node:path";

function git(cwd: string, args: string[]): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile("git", ["-C", cwd, ...args], { encoding: "buffer", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } },
      (err, stdout) => resolve(err ? undefined : stdout));
  });
}

const paths = (out: Buffer | undefined): string[] => (out ? out.toString("utf8").split("\0").filter(Boolean) : []);

/** The work tree's top folder, or undefined outside a git repository (or without git). */
export async function workTreeOf(cwd: string): Promise<string | undefined> {
  const out = await git(cwd, ["rev-parse", "--show-toplevel"]);
  return out ? out.toString("utf8").trim() || undefined : undefined;
}

/** The HEAD commit, or null in a repository with no commit yet. */
export async function headOf(top: string): Promise<string | null> {
  const out = await git(top, ["rev-parse", "--verify", "-q", "HEAD"]);
  return out ? out.toString("utf8").trim() || null : null;
}

/** Absolute paths of the files that differ from `commit` (or from nothing), untracked ones included. */
export async function changedSince(top: string, commit: string | null): Promise<string[]> {
  const tracked = commit ? paths(await git(top, ["diff", "--name-only", "-z", "--no-renames", commit, "--"])) : [];
  const untracked = paths(await git(top, ["ls-files", "--others", "--exclude-standard", "-z"]));
  return [...new Set([...tracked, ...untracked])].map((p) => join(top, p));
}

/** A file's content at `commit` (path relative to the work tree), or undefined when it is not there. */
export function contentAt(top: string, commit: string, relative: string): Promise<Buffer | undefined> {
  return git(top, ["cat-file", "blob", `${commit}:${relative}`]);
}
