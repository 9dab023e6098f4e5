// Real local git repositories for install tests.
import { execFileSync } from "node:child_process";
import { writeFiles } from "./cli.ts";

const IDENTITY = ["-c", "user.name=zot test", "-c", "user.email=test@zot.invalid", "-c", "commit.gpgsign=false",
  "-c", "tag.gpgsign=false", "-c", "init.defaultBranch=main"];

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync("git", [...IDENTITY, ...args], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Commits `files` (and optionally tags the commit) in the repository at `dir`, creating it first. */
export function commit(dir: string, files: Record<string, string>, env: NodeJS.ProcessEnv, tag?: string): void {
  git(dir, ["init", "-q", "."], env);
  writeFiles(dir, files);
  git(dir, ["add", "-A"], env);
  git(dir, ["commit", "-q", "-m", tag ?? "change"], env);
  if (tag) git(dir, ["tag", tag], env);
}
