// `worktree: true`: the child works in a fresh git worktree on a new branch, so parallel agents
// never edit the same files; merging the branch is the user's call.
import { execFile } from "node:child_process";
import { join, relative } from "node:path";

export interface AgentWorktree {
  branch: string;
  /** The worktree's root. */
  path: string;
  /** Where the child starts: the same place inside the worktree as the parent's cwd in its repository. */
  cwd: string;
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err) reject(new Error((stderr || err.message).trim()));
      else resolve(stdout.trim());
    });
  });
}

/** Creates branch `zot/<agentId>` in a worktree under `rootDir`; throws a clear error outside git. */
export async function createWorktree(cwd: string, rootDir: string, agentId: string): Promise<AgentWorktree> {
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
