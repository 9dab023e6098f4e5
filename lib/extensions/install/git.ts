// Shallow `git clone` into a staging folder, through tinyexec (one-shot command), with a
// deadline that counts time without progress: git reports progress on stderr (`--progress`),
// and a clone that says nothing for `idleTimeoutMs` is stopped, its whole process group with it
// (a remote helper blocked on a silent server would otherwise outlive zot).
import { join } from "node:path";
import { NonZeroExitError, x } from "tinyexec";
import { terminateGroup, trackGroup, untrackGroup } from "../../process/group.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, describeDuration } from "./download.ts";
import { removeTree } from "./remove-tree.ts";

export interface CloneOptions {
  /** Branch or tag to check out. */
  ref?: string;
  /** Environment for git; defaults to the process environment. */
  env?: NodeJS.ProcessEnv;
  /** Stop the clone after this long without progress (default 60 s). */
  idleTimeoutMs?: number;
}

/** How long git gets to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 1_000;

/** git's progress meter ("Receiving objects:  50% (1/2)") is noise in an error message. */
const PROGRESS_LINE = /^(remote: )?(Enumerating|Counting|Compressing|Receiving|Resolving|Unpacking|Updating|Checking|Total\b)/;

function gitErrorText(stderr: string): string {
  return stderr.split(/[\r\n]+/).map((l) => l.trim()).filter((l) => l && !PROGRESS_LINE.test(l)).join("\n");
}

/**
 * Clones `url` with `--depth 1` into `dir` (which must not exist or be empty), then removes
 * `dir/.git` so the install carries no repository. Errors keep git's own stderr; a missing git
 * binary and a clone that went silent are reported as such.
 */
export async function gitClone(url: string, dir: string, options: CloneOptions = {}): Promise<void> {
  const args = ["clone", "--depth", "1", "--quiet", "--progress"];
  if (options.ref) args.push("--branch", options.ref);
  // `--` so a URL can never be read as an option.
  args.push("--", url, dir);
  const env = { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: "0" };
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const what = options.ref ? `${url} (ref ${options.ref})` : url;
  // tinyexec crashes on ENOENT unless it throws; nodePath:false keeps PATH as the user set it.
  const run = x("git", args, {
    throwOnError: true, nodePath: false,
    nodeOptions: { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  });
  // Its own group does not get the terminal's Ctrl+C: if zot exits first, the group is killed.
  const pid = run.pid;
  if (pid !== undefined) trackGroup(pid);
  let stopped: Promise<boolean> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stopped = pid === undefined ? Promise.resolve(true) : terminateGroup(pid, KILL_GRACE_MS);
    }, idleMs);
  };
  touch();
  run.process?.stderr?.on("data", touch);
  try {
    await run;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("git is not installed or not on PATH; it is needed to install from a git URL");
    }
    if (stopped) {
      await stopped;
      throw new Error(`git clone of ${what} made no progress for ${describeDuration(idleMs)}; stopped it, nothing was installed`);
    }
    if (err instanceof NonZeroExitError) {
      const stderr = gitErrorText(err.output?.stderr ?? "");
      throw new Error(`git clone of ${what} failed (exit ${err.exitCode})${stderr ? `:\n${stderr}` : ""}`);
    }
    throw err;
  } finally {
    clearTimeout(timer);
    if (pid !== undefined) untrackGroup(pid);
  }
  await removeTree(join(dir, ".git"));
}
