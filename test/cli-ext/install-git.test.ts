// `zot ext install <git-url>`: shallow clones of real local repositories.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { processAlive } from "../../lib/process/group.ts";
import { makeSandbox, runZot, type Sandbox } from "./support/cli.ts";
import { commit, git } from "./support/git.ts";

let sb: Sandbox;
let repos: Sandbox;
let work: string;
let bare: string;

const manifest = (version: string) => `${JSON.stringify({ name: "gitext", version, exec: "./run.sh" }, null, 2)}\n`;

beforeAll(() => {
  // Shared, read-only: a working repository with two tagged versions and a bare clone of it.
  repos = makeSandbox();
  work = join(repos.base, "repos", "gitext");
  mkdirSync(work, { recursive: true });
  commit(work, { "extension.json": manifest("1.0.0"), "run.sh": "#!/bin/sh\n", "only-in-v1.txt": "1" }, repos.env, "v1");
  git(work, ["rm", "-q", "only-in-v1.txt"], repos.env);
  commit(work, { "extension.json": manifest("2.0.0"), "lib/two.txt": "2" }, repos.env, "v2");
  bare = join(repos.base, "repos", "gitext-bare.git");
  git(repos.base, ["clone", "-q", "--bare", work, bare], repos.env);
});
afterAll(() => repos.cleanup());

beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });
const installedVersion = () => JSON.parse(readFileSync(join(sb.globalRoot, "gitext", "extension.json"), "utf8")).version;

describe("install from a git URL", () => {
  it("clones a file:// URL (HEAD), removes .git, and prints a progress line on stderr", async () => {
    const url = pathToFileURL(work).href;
    const r = await zot("install", "--yes", url);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Cloning ${url}`);
    expect(r.stdout).toContain(`Installed gitext 2.0.0 (global) in ${join(sb.globalRoot, "gitext")}`);
    expect(readdirSync(join(sb.globalRoot, "gitext")).sort()).toEqual([".zot-install.json", "extension.json", "lib", "run.sh"]);
    expect(readdirSync(sb.globalRoot)).toEqual(["gitext"]);
  });

  it("checks out a tag with #ref", async () => {
    const r = await zot("install", "--yes", `${pathToFileURL(work).href}#v1`);
    expect(r.code).toBe(0);
    expect(installedVersion()).toBe("1.0.0");
    expect(existsSync(join(sb.globalRoot, "gitext", "only-in-v1.txt"))).toBe(true);
  });

  it("clones a bare repository given as a plain path ending in .git, with and without #tag", async () => {
    const plain = await zot("install", "--yes", bare, "--project");
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(`Cloning ${pathToFileURL(bare).href}`);
    expect(JSON.parse(readFileSync(join(sb.projectRoot, "gitext", "extension.json"), "utf8")).version).toBe("2.0.0");

    // A relative path works too (resolved against the shell's directory).
    const tagged = await runZot(["ext", "install", "--yes", "repos/gitext-bare.git#v1"], { cwd: repos.base, env: sb.env });
    expect(tagged.code).toBe(0);
    expect(installedVersion()).toBe("1.0.0");
    expect(existsSync(join(sb.globalRoot, "gitext", ".git"))).toBe(false);
  });

  it("the clone is shallow (one commit), even for a local repository", async () => {
    // git's own trace of the clone zot ran: --depth 1, through the file:// URL zot builds.
    const trace = join(sb.base, "git-trace.log");
    const r = await runZot(["ext", "install", "--yes", bare], { cwd: sb.project, env: { ...sb.env, GIT_TRACE: trace } });
    expect(r.code).toBe(0);
    const clone = readFileSync(trace, "utf8").split("\n").find((l) => /\bbuilt-in: git clone\b/.test(l));
    expect(clone).toContain(`git clone --depth 1 --quiet --progress -- ${pathToFileURL(bare).href}`);
    // ...and through that URL git really honours --depth (a plain path would copy all history).
    const probe = join(sb.base, "probe");
    git(sb.base, ["clone", "-q", "--depth", "1", pathToFileURL(bare).href, probe], sb.env);
    expect(git(probe, ["rev-list", "--count", "HEAD"], sb.env).trim()).toBe("1");
  });

  it("checks out a branch with #ref", async () => {
    const branched = join(sb.base, "branched");
    mkdirSync(branched);
    commit(branched, { "extension.json": manifest("1.0.0"), "run.sh": "#!/bin/sh\n" }, sb.env);
    git(branched, ["checkout", "-q", "-b", "next"], sb.env);
    commit(branched, { "extension.json": manifest("3.0.0-next") }, sb.env);
    git(branched, ["checkout", "-q", "main"], sb.env);
    const [head, next] = [await zot("install", "--yes", pathToFileURL(branched).href), await zot("install", "--yes", `${pathToFileURL(branched).href}#next`, "--project")];
    expect(head.code).toBe(0);
    expect(installedVersion()).toBe("1.0.0");
    expect(next.code).toBe(0);
    expect(JSON.parse(readFileSync(join(sb.projectRoot, "gitext", "extension.json"), "utf8")).version).toBe("3.0.0-next");
  });

  it("reports git's own error for an unknown ref and leaves nothing behind", async () => {
    const r = await zot("install", "--yes", `${pathToFileURL(work).href}#no-such-tag`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: git clone of .*no-such-tag.* failed \(exit 128\):/m);
    expect(r.stderr).toMatch(/no-such-tag not found/);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });

  it("rolls back a repository without extension.json", async () => {
    const empty = join(sb.base, "no-manifest");
    mkdirSync(empty, { recursive: true });
    commit(empty, { "README.md": "nothing here" }, sb.env);
    const r = await zot("install", "--yes", pathToFileURL(empty).href);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has no extension\.json at its top level; nothing was installed/);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });

  it("says clearly when git is missing", async () => {
    const noGit = join(sb.base, "empty-bin");
    mkdirSync(noGit);
    const r = await runZot(["ext", "install", "--yes", pathToFileURL(work).href], { cwd: sb.project, env: { ...sb.env, PATH: noGit } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: git is not installed or not on PATH/m);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
    // sanity: git itself is present for the other tests
    expect(execFileSync("git", ["--version"], { encoding: "utf8" })).toMatch(/^git version/);
  });
});

/** Processes (other than zombies) whose command line mentions `text` (Linux: /proc). */
function processesMentioning(text: string): string[] {
  if (process.platform !== "linux") return [];
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(text) && processAlive(Number(pid))) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("a clone has a deadline counted as time without progress", () => {
  it("a git server that accepts and never answers is given up after --timeout-ms: rolled back, no git process left", async () => {
    const silent = createServer(() => undefined); // takes every request and never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/o/never.git`;
    try {
      const r = await zot("install", "--yes", url, "--timeout-ms", "400");
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`zot: git clone of ${url} made no progress for 400 ms; stopped it, nothing was installed`);
      expect(readdirSync(sb.globalRoot)).toEqual([]);
      expect(processesMentioning(url)).toEqual([]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
