// Process-group plumbing for bash: pick the shell, and terminate a whole group (the command and
// everything it forked) with SIGTERM, a grace period, then SIGKILL, waiting until it is gone.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

let cachedShell: string | undefined;

/** bash from PATH (or the usual places), else sh. */
export function findShell(): string {
  if (cachedShell) return cachedShell;
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/bin", "/usr/bin", "/usr/local/bin"];
  for (const name of ["bash", "sh"]) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        cachedShell = candidate;
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  cachedShell = "sh";
  return cachedShell;
}

/** Whether any process of group `pgid` still exists (zombies count until reaped). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(20, Math.max(1, deadline - Date.now())));
  }
  return true;
}

/**
 * Terminates every process in group `pgid`: SIGTERM, up to `graceMs` to exit, then SIGKILL
 * (sent with process.kill, which also works where a second child.kill is a no-op), then waits
 * up to `reapMs` for the group to disappear. Resolves true when the group is gone.
 */
export async function terminateGroup(pgid: number, graceMs: number, reapMs = 2_000): Promise<boolean> {
  if (process.platform === "win32") return true; // no process groups; the caller kills the child
  if (!groupAlive(pgid)) return true;
  signalGroup(pgid, "SIGTERM");
  if (await waitGone(pgid, graceMs)) return true;
  signalGroup(pgid, "SIGKILL");
  return waitGone(pgid, reapMs);
}
