// Shallow `git clone` into a staging folder, through tinyexec (one-shot command).
import { join } from "node:path";
import { NonZeroExitError, x } from "tinyexec";
import { removeTree } from "./remove-tree.ts";

export interface CloneOptions {
  /** Branch or tag to check out. */
  ref?: string;
  /** Environment for git; defaults to the process environment. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Clones `url` with `--depth 1` into `dir` (which must not exist or be empty), then removes
 * `dir/.git` so the install carries no repository. Errors keep git's own stderr; a missing git
 * binary is reported as such.
 */
export async function gitClone(url: string, dir: string, options: CloneOptions = {}): Promise<void> {
  const args = ["clone", "--depth", "1", "--quiet"];
  if (options.ref) args.push("--branch", options.ref);
  // `--` so a URL can never be read as an option.
  args.push("--", url, dir);
  const env = { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: "0" };
  try {
    // tinyexec crashes on ENOENT unless it throws; nodePath:false keeps PATH as the user set it.
    await x("git", args, { throwOnError: true, nodePath: false, nodeOptions: { env, stdio: ["ignore", "pipe", "pipe"] } });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("git is not installed or not on PATH; it is needed to install from a git URL");
    }
    if (err instanceof NonZeroExitError) {
      const stderr = err.output?.stderr.trim();
      const what = options.ref ? `${url} (ref ${options.ref})` : url;
      throw new Error(`git clone of ${what} failed (exit ${err.exitCode})${stderr ? `:\n${stderr}` : ""}`);
    }
    throw err;
  }
  await removeTree(join(dir, ".git"));
}
