// Linux: the bubblewrap command line for a sandbox plan. The new root holds only what the plan
// lists (system folders read-only, a private /tmp, /dev and /proc), a PID namespace whose first
// process takes every other one down with it (so nothing the extension starts can outlive it),
// and no network namespace unless the plan allows network.
import { execFile } from "node:child_process";
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

/**
 * bwrap's arguments (without the program) for `plan`, ending with `--` before the command.
 * `systemPaths` that are symlinks on the host (merged /usr: /bin → usr/bin) stay symlinks.
 */
export function bwrapArgs(plan: SandboxPlan, command: string, args: string[], options: { tempGranted: boolean; systemPaths: string[] }): string[] {
  const out = ["--unshare-pid", "--unshare-ipc", "--die-with-parent"];
  if (!plan.network) out.push("--unshare-net");
  out.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  const readOnly = plan.network ? [...plan.readOnly, ...RESOLVER_PATHS] : plan.readOnly;
  for (const path of existing(readOnly)) {
    if (options.systemPaths.includes(path) && isSymlink(path)) out.push("--symlink", readlinkSync(path), path);
    else out.push("--ro-bind", path, path);
  }
  for (const path of existing(plan.readWrite)) out.push("--bind", path, path);
  // TMPDIR may name a folder that does not exist inside; the private /tmp always does.
  if (!options.tempGranted) out.push("--setenv", "TMPDIR", "/tmp");
  out.push("--chdir", plan.cwd, "--", command, ...args);
  return out;
}

const PROBE_TIMEOUT_MS = 5_000;
const probes = new Map<string, Promise<string | undefined>>();

/**
 * Why bubblewrap at `bwrap` cannot set up a sandbox here (not installed, user namespaces
 * disabled, …), or undefined when it can. Checked once per path and process, without blocking
 * the event loop (the probe takes 30–130 ms): every sandboxed start shares the same probe.
 */
export function bwrapProblem(bwrap: string): Promise<string | undefined> {
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = probeBwrap(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

/** A trivial sandbox with the same namespaces as the real ones. */
function probeBwrap(bwrap: string): Promise<string | undefined> {
  const args = ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--die-with-parent",
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"];
  return new Promise((resolve) => {
    execFile(bwrap, args, { encoding: "utf8", timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      if (error.killed) return resolve(`${bwrap} could not be run: it did not finish within ${PROBE_TIMEOUT_MS} ms`);
      // A string code is the spawn's own error (ENOENT, EACCES); a number, bwrap's exit status.
      if (typeof error.code === "string") return resolve(`${bwrap} could not be run: ${error.message}`);
      resolve(`${bwrap} could not create a sandbox: ${(stderr || `exit status ${error.code}`).trim()}`);
    });
  });
}
