// Linux: the bubblewrap command line for a sandbox plan. The new root holds only what the plan
// lists (system folders read-only, a private /tmp, /dev and /proc), a PID namespace whose first
// process takes every other one down with it (so nothing the extension starts can outlive it),
// and no network namespace unless the plan allows network.
import { spawnSync } from "node:child_process";
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

const probed = new Map<string, string | undefined>();

/**
 * Why bubblewrap at `bwrap` cannot set up a sandbox here (not installed, user namespaces
 * disabled, …), or undefined when it can. Checked once per path and process: a trivial sandbox
 * with the same namespaces as the real ones.
 */
export function bwrapProblem(bwrap: string): string | undefined {
  if (probed.has(bwrap)) return probed.get(bwrap);
  const result = spawnSync(bwrap, ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--die-with-parent",
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"], { encoding: "utf8", timeout: 5_000 });
  let problem: string | undefined;
  if (result.error) problem = `${bwrap} could not be run: ${result.error.message}`;
  else if (result.status !== 0) problem = `${bwrap} could not create a sandbox: ${(result.stderr || `exit status ${result.status}`).trim()}`;
  probed.set(bwrap, problem);
  return problem;
}
