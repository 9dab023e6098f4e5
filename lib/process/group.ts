// Process groups: liveness, termination and the exit-time safety net, shared by extension
// supervision and the bash tool. A child spawned detached leads its own group, so signalling
// `-pgid` reaches everything it forked. Zombies count as members for kill(0) but are dead; where
// /proc exists we look past them, because a container's init may reap orphaned grandchildren
// late or never.
import { readdirSync, readFileSync } from "node:fs";

/** Whether group `pgid` has a member that is not a zombie. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  return process.platform !== "linux" || hasLiveMember(pgid);
}

/** Whether `pid` runs and is not a zombie (an exited process awaiting its reaper counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  try {
    return !isDead(statFields(readFileSync(`/proc/${pid}/stat`, "utf8")));
  } catch {
    return false; // reaped meanwhile
  }
}

/** Fields after the parenthesised command name of /proc/<pid>/stat: state ppid pgrp … */
function statFields(stat: string): string[] {
  // The command name may contain spaces and parentheses.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

const isDead = (fields: string[]) => fields[0] === "Z" || fields[0] === "X";

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
    const fields = statFields(stat);
    if (Number(fields[2]) === pgid && !isDead(fields)) return true;
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
    await sleep(Math.min(20, Math.max(1, deadline - Date.now())));
  }
  return true;
}

export interface TerminateOptions {
  /** How long to wait for the group to disappear after SIGKILL (default 2 s). */
  reapMs?: number;
  /** Told when SIGTERM was not enough and SIGKILL is sent (for the diagnostics of the caller). */
  onSigkill?: () => void;
}

/**
 * Terminates every process in group `pgid`: SIGTERM, up to `graceMs` to exit, then SIGKILL
 * (sent with process.kill, which also works on runtimes where a second child.kill is a no-op),
 * then waits up to `reapMs` for the group to disappear. Resolves true when the group is gone.
 */
export async function terminateGroup(pgid: number, graceMs: number, options: TerminateOptions = {}): Promise<boolean> {
  if (process.platform === "win32") return true; // no process groups; the caller kills the child
  if (!groupAlive(pgid)) return true;
  signalGroup(pgid, "SIGTERM");
  if (await waitGroupGone(pgid, graceMs)) return true;
  options.onSigkill?.();
  signalGroup(pgid, "SIGKILL");
  return waitGroupGone(pgid, options.reapMs ?? 2_000);
}

// The safety net: groups still tracked when zot exits (a crash, process.exit without a graceful
// shutdown, a fatal signal nobody handles) are SIGKILLed synchronously, so no extension outlives zot.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
const FATAL_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function killTrackedGroups(): void {
  for (const group of liveGroups) signalGroup(group, "SIGKILL");
}

/**
 * A signal that would kill zot by default skips "exit" handlers. When no one else listens for
 * it, kill the groups and re-raise it so the default action still applies; when someone does,
 * they own the graceful path (which ends in shutdown() or process.exit).
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killTrackedGroups();
  process.removeListener(signal, onFatalSignal);
  process.kill(process.pid, signal);
}

/** Kills group `pgid` if it is still tracked when zot exits. */
export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", killTrackedGroups);
  if (process.platform !== "win32") for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}
