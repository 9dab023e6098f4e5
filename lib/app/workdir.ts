// The working directory a run uses: --cwd at start, /cd and rpc set_cwd later. A path names an
// existing directory or is refused with what is wrong with it.
import { statSync } from "node:fs";
import { expandPath } from "../tools/tool-path.ts";

/** Why `dir` (absolute) cannot be a working directory, or undefined when it can. */
export function workdirProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : `${dir} is not a directory`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `no such directory: ${dir}` : `${dir} cannot be used: ${(err as Error).message}`;
  }
}

/**
 * `raw` as a new working directory: `~` expands, a relative path resolves against `from` (the
 * current one). Throws an Error naming the problem for a missing path or a non-directory.
 */
export function resolveWorkdir(raw: string, from: string): string {
  if (raw.trim() === "") throw new Error("cd: give a directory: /cd PATH");
  const dir = expandPath(raw.trim(), from);
  const problem = workdirProblem(dir);
  if (problem) throw new Error(`cd: ${problem}`);
  return dir;
}
