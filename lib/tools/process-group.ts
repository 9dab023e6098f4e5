// Process-group plumbing for bash: pick the shell, and terminate a whole group (the command and
// everything it forked) with SIGTERM, a grace period, then SIGKILL, waiting until it is gone.
import { accessSync, constants, readdirSync, readFileSync } from "node:fs";
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

/**
 * Whether any process of group `pgid` is still running. A zombie is not running: orphans are
 * reaped by init, which in some containers happens only every second or so, and waiting for
 * that would make every call slow.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  return process.platform !== "linux" || hasLiveMember(pgid);
}

/** Linux: scans /proc for a member of the group that is not a zombie. */
function hasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true; // no /proc to look at: trust kill(0)
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
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
