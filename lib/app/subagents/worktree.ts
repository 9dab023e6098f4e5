// `worktree: true`: the child works in a fresh git worktree on a new branch, so parallel agents
// never edit the same files. A completed child's changes are committed on its branch; merging
// it is the user's call, and pruning removes the worktrees of finished agents (the branches stay).
import { childProcess } from "../../lazy-node.ts";
import { join, relative } from "node:path";

export interface SubagentWorktree {
  branch: string;
  /** The worktree's root. */
  path: string;
  /** Where the child starts: the same place inside the worktree as the parent's cwd in its repository. */
  cwd: string;
}

function git(cwd: string, args: string[], env?: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    childProcess().execFile("git", args, { cwd, encoding: "utf8", ...(env ? { env: { ...process.env, ...env } } : {}) }, (err, stdout, stderr) => {
      if (err) reject(new Error((stderr || err.message).trim()));
      else resolve(stdout.trim());
    });
  });
}

/** Creates branch `zot/<agentId>` in a worktree under `rootDir`; throws a clear error outside git. */
export async function createWorktree(cwd: string, rootDir: string, agentId: string): Promise<SubagentWorktree> {
  let top: string;
  try {
    top = await git(cwd, ["rev-parse", "--show-toplevel"]);
  } catch {
    throw new Error(`worktree needs a git repository, and ${cwd} is not inside one`);
  }
  const branch = `zot/${agentId}`;
  const path = join(rootDir, agentId);
  try {
    await git(top, ["worktree", "add", "-b", branch, path, "HEAD"]);
  } catch (err) {
    throw new Error(`could not create a git worktree for ${agentId}: ${(err as Error).message}`);
  }
  return { branch, path, cwd: join(path, relative(top, cwd)) };
}

/** What committing a worktree did: the new commit, nothing to commit, or why it failed. */
export type WorktreeCommit = { commit: string } | { clean: true } | { error: string };

/** The commit message for a task: its first line, cut to 72 characters. */
export function commitMessage(agentId: string, task: string): string {
  const first = task.trim().split("\n")[0]!.trim();
  const subject = first.length > 72 ? `${first.slice(0, 69)}...` : first;
  return `${subject || `work of ${agentId}`}\n\nCommitted by zot for agent ${agentId}.`;
}

/** Commits everything the child changed in `path` (new files included) on its branch. */
export async function commitWorktree(path: string, message: string): Promise<WorktreeCommit> {
  try {
    await git(path, ["add", "--all"]);
    if ((await git(path, ["status", "--porcelain"])) === "") return { clean: true };
    // A repository without a configured identity still gets the commit, as zot's.
    const named = await git(path, ["config", "user.email"]).then(() => true, () => false);
    const identity = named ? undefined : { GIT_AUTHOR_NAME: "zot", GIT_AUTHOR_EMAIL: "zot@localhost", GIT_COMMITTER_NAME: "zot",
      GIT_COMMITTER_EMAIL: "zot@localhost" };
    await git(path, ["commit", "--quiet", "-m", message], identity);
    return { commit: await git(path, ["rev-parse", "--short", "HEAD"]) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Removes a worktree (its branch stays); refuses one with uncommitted changes unless `force`. */
export async function removeWorktree(path: string, force = false): Promise<void> {
  // Run from the repository's own git folder, not from inside the worktree being removed.
  const common = await git(path, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  await git(common, ["worktree", "remove", ...(force ? ["--force"] : []), path]);
}
