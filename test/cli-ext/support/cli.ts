// Runs the real bundled CLI (`node dist/zot.mjs ext …`) in a throwaway sandbox: its own
// ZOT_HOME, project folder, HOME and giget cache, so nothing touches the machine's state.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");
export const ZOT = join(REPO_ROOT, "dist", "zot.mjs");

export interface Sandbox {
  /** Parent of everything below; removed by cleanup(). */
  base: string;
  /** $ZOT_HOME */
  home: string;
  /** The project folder the CLI runs in. */
  project: string;
  /** $ZOT_HOME/extensions */
  globalRoot: string;
  /** <project>/.zot/extensions */
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "zot-cli-ext-")));
  const home = join(base, "zot-home");
  const project = join(base, "project");
  mkdirSync(home);
  mkdirSync(project);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(ZOT_|XDG_|GIGET_|GIT_)/.test(key)) env[key] = value;
  }
  Object.assign(env, {
    ZOT_HOME: home,
    HOME: join(base, "user-home"),
    XDG_CACHE_HOME: join(base, "cache"),
    GIT_CONFIG_NOSYSTEM: "1",
    NO_COLOR: "1",
  });
  return {
    base, home, project, env,
    globalRoot: join(home, "extensions"),
    projectRoot: join(project, ".zot", "extensions"),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Runs `zot <args>` to completion (async, so loopback servers in this process keep serving). */
export function runZot(args: string[], { cwd, env }: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ZOT, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => { stdout += d; });
    child.stderr.setEncoding("utf8").on("data", (d: string) => { stderr += d; });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningZot {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout satisfies `test`; rejects on exit or after `timeoutMs`. */
  waitForStdout(test: (out: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
}

/** Starts `zot <args>` and leaves it running (for `logs -f`). */
export function startZot(args: string[], { cwd, env }: RunOptions): RunningZot {
  const child = spawn(process.execPath, [ZOT, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding("utf8").on("data", (d: string) => { stdout += d; listeners.forEach((l) => l()); });
  child.stderr!.setEncoding("utf8").on("data", (d: string) => { stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => {
    listeners.forEach((l) => l());
    resolve(code);
  }));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStdout(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test(stdout)) done(() => resolve());
          else if (child.exitCode !== null || child.signalCode !== null) {
            done(() => reject(new Error(`zot exited (${child.exitCode ?? child.signalCode}); stdout: ${stdout}\nstderr: ${stderr}`)));
          }
        };
        const timer = setTimeout(() => done(() => reject(new Error(`timed out; stdout: ${stdout}\nstderr: ${stderr}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Writes files (paths relative to `dir`); a `manifest` object becomes extension.json. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A small valid protocol extension folder (manifest + an executable script). */
export function writeExtension(dir: string, manifest: Record<string, unknown>, extra: Record<string, string> = {}): void {
  writeFiles(dir, {
    "extension.json": `${JSON.stringify({ exec: "./run.sh", ...manifest }, null, 2)}\n`,
    "run.sh": "#!/bin/sh\nexit 0\n",
    ...extra,
  });
  chmodSync(join(dir, "run.sh"), 0o755);
}
