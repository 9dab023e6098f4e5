// Process-group termination for extension subprocesses. Each extension runs in its own group
// (spawned detached), so signalling `-pgid` reaches everything it forked. Zombies count as
// members for kill(0) but are dead; where /proc exists we look past them, because a container's
// init may never reap orphaned grandchildren.
import { readdirSync, readFileSync } from "node:fs";

const hasProc = process.platform === "linux" && (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** Whether group `pgid` has a member that is not a zombie. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  if (!hasProc) return true;
  for (const entry of readdirSync("/proc")) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until the group has no live member; resolves false when `ms` passed first. */
export async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(25, Math.max(1, deadline - Date.now())));
  }
  return true;
}

/**
 * SIGTERM the whole group, wait up to `graceMs`, then SIGKILL it (through process.kill, which
 * also works on runtimes where a second child.kill is a no-op) and wait briefly for it to go.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, "SIGTERM");
  if (await waitGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await waitGroupGone(pgid, Math.max(graceMs, 500));
}

// Safety net: groups still registered when the host process exits (a crash, process.exit
// without a graceful shutdown, a fatal signal nobody handles) are SIGKILLed synchronously, so no
// extension outlives zot.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
const FATAL_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function killAll(): void {
  for (const group of liveGroups) signalGroup(group, "SIGKILL");
}

/**
 * A signal that would kill zot by default skips "exit" handlers. When no one else listens for
 * it, kill the groups and re-raise it so the default action still applies; when someone does,
 * they own the graceful path (which ends in shutdown() or process.exit).
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  process.removeListener(signal, onFatalSignal);
  process.kill(process.pid, signal);
}

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", killAll);
  if (process.platform !== "win32") for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}
