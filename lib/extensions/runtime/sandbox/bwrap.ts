// Linux: the bubblewrap command lines. Every extension zot starts on Linux runs in a PID
// namespace of its own whose first process takes every other one down with it, in a session of
// its own, dying with zot (so nothing it starts can outlive it, even when zot is killed -9):
// - confined (its manifest declares permissions): a new root holding only what the plan lists
//   (system folders read-only, a private /tmp, /dev and /proc), a user namespace without any
//   capability (so root cannot remount what it was given read-only), what only root may read in
//   /etc hidden, and no network namespace unless the plan allows network;
// - isolated (full access): the whole file system and network as they are, in a PID namespace
//   with its own /proc.
import { childProcess } from "../../../lazy-node.ts";
import { lstatSync, readlinkSync } from "node:fs";
import type { SandboxPlan } from "./plan.ts";
import { existing } from "./plan.ts";

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Where a host with network resolves names from when /etc/resolv.conf points there. */
const RESOLVER_PATHS = ["/run/systemd/resolve", "/run/resolvconf"];

/** The namespaces and process rules every confined sandbox gets (the probe tries exactly these). */
const CONFINED = ["--unshare-user", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"];
/**
 * The namespace a full-access extension gets: its process tree only, with a /proc of its own, so
 * no process outside it is visible (zot's /proc/<pid>/environ keeps the keys it started with).
 */
const ISOLATED = ["--unshare-pid", "--die-with-parent", "--new-session", "--proc", "/proc"];

/**
 * bwrap's arguments (without the program) for `plan`, ending with `--` before the command.
 * `systemPaths` that are symlinks on the host (merged /usr: /bin → usr/bin) stay symlinks.
 */
export function bwrapArgs(plan: SandboxPlan, command: string, args: string[], options: { tempGranted: boolean; systemPaths: string[] }): string[] {
  const out = [...CONFINED];
  if (!plan.network) out.push("--unshare-net");
  out.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  const readOnly = plan.network ? [...plan.readOnly, ...RESOLVER_PATHS] : plan.readOnly;
  for (const path of existing(readOnly)) {
    if (options.systemPaths.includes(path) && isSymlink(path)) out.push("--symlink", readlinkSync(path), path);
    else out.push("--ro-bind", path, path);
  }
  for (const path of existing(plan.readWrite)) out.push("--bind", path, path);
  // zot's own folders a grant showed are covered, then what the plan mounts inside them shown again.
  for (const dir of existing(plan.masked)) {
    out.push("--tmpfs", dir);
    const inside = (path: string) => path !== dir && path.startsWith(`${dir}/`);
    for (const path of existing(plan.readOnly).filter(inside)) out.push("--ro-bind", path, path);
    for (const path of existing(plan.readWrite).filter(inside)) out.push("--bind", path, path);
  }
  // Covered after everything is mounted, so no later bind can show them again.
  for (const file of plan.hidden.files) out.push("--ro-bind", "/dev/null", file);
  for (const dir of plan.hidden.dirs) out.push("--tmpfs", dir, "--remount-ro", dir);
  // TMPDIR may name a folder that does not exist inside; the private /tmp always does.
  if (!options.tempGranted) out.push("--setenv", "TMPDIR", "/tmp");
  out.push("--chdir", plan.cwd, "--", command, ...args);
  return out;
}

/** bwrap's arguments for a full-access extension: everything as it is, in its own PID namespace. */
export function isolatedArgs(cwd: string, command: string, args: string[]): string[] {
  return ["--bind", "/", "/", "--dev-bind", "/dev", "/dev", ...ISOLATED, "--chdir", cwd, "--", command, ...args];
}

export type BwrapUse = "confined" | "isolated";

const PROBE_TIMEOUT_MS = 5_000;
const PROBES: Record<BwrapUse, string[]> = {
  confined: [...CONFINED, "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"],
  isolated: ["--bind", "/", "/", "--dev-bind", "/dev", "/dev", ...ISOLATED, "--", "true"],
};
const probes = new Map<string, Promise<string | undefined>>();

/**
 * Why bubblewrap at `bwrap` cannot set up a sandbox of this kind here (not installed, user
 * namespaces disabled, …), or undefined when it can. Checked once per path, kind and process,
 * without blocking the event loop: every start shares the same probe.
 */
export function bwrapProblem(bwrap: string, use: BwrapUse = "confined"): Promise<string | undefined> {
  const key = `${use}\0${bwrap}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = probeBwrap(bwrap, PROBES[use]);
    probes.set(key, probe);
  }
  return probe;
}

function probeBwrap(bwrap: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile(bwrap, args, { encoding: "utf8", timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      if (error.killed) return resolve(`${bwrap} could not be run: it did not finish within ${PROBE_TIMEOUT_MS} ms`);
      // A string code is the spawn's own error (ENOENT, EACCES); a number, bwrap's exit status.
      if (typeof error.code === "string") return resolve(`${bwrap} could not be run: ${error.message}`);
      resolve(`${bwrap} could not create a sandbox: ${(stderr || `exit status ${error.code}`).trim()}`);
    });
  });
}
