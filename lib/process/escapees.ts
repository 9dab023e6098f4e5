// Processes that left an extension's process group (a daemon that called setsid()) and would
// outlive zot. Every extension is started with a marker in its environment, which its
// descendants inherit whatever they do to their session or parent; on Linux, /proc shows each
// process's environment and parent, so at shutdown zot finds the processes that carry the marker,
// and the descendants of those, and stops them. A descendant that clears its environment and
// whose marked parent is gone can still escape, unless it was already running when zot took the
// snapshot of the extension's process tree that precedes every stop; anything on platforms
// without /proc can escape.
import { readdirSync, readFileSync } from "node:fs";
import { randomHex } from "../random-id.ts";

/** The environment variable that marks an extension's processes. */
export const RUN_MARKER_VAR = "ZOT_EXTENSION_RUN";
/** The one that marks a subagent's processes (its own extensions get their own RUN_MARKER_VAR). */
export const AGENT_MARKER_VAR = "ZOT_AGENT_RUN";
/** A subagent child's id and agent type, so what it runs (hooks) knows it works for a parent agent. */
export const SUBAGENT_ID_VAR = "ZOT_SUBAGENT_ID";
export const SUBAGENT_TYPE_VAR = "ZOT_SUBAGENT_TYPE";

export function newRunMarker(): string {
  return randomHex(9);
}

function numericEntries(): number[] {
  try {
    return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number);
  } catch {
    return [];
  }
}

/** State, parent and start time (clock ticks since boot) of a live process; undefined for zombies and the gone. */
function statOf(pid: number): { parent: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" || fields[0] === "X" ? undefined : { parent: Number(fields[1]), start: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

const parentOf = (pid: number) => statOf(pid)?.parent;

/** One process of a snapshot: its start time tells it apart from a later process given the same pid. */
export interface ProcessIdentity {
  pid: number;
  start: string;
  /** Its parent when the snapshot was taken. */
  parent?: number;
}

/**
 * Every live descendant of `root` now (Linux; empty elsewhere). Taken before an extension is
 * asked to stop: once a parent exits, its children are reparented and the tree no longer shows them.
 */
export function descendantsOf(root: number): ProcessIdentity[] {
  const stats = new Map(numericEntries().map((pid) => [pid, statOf(pid)]));
  const found = new Set([root]);
  const result: ProcessIdentity[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (stat && !found.has(pid) && found.has(stat.parent)) {
        found.add(pid);
        result.push({ pid, start: stat.start, parent: stat.parent });
        grew = true;
      }
    }
  }
  return result;
}

/** Sends `signal` to the processes of a snapshot that still run (the same process: same start time); returns how many. */
export function signalSnapshot(snapshot: ProcessIdentity[], signal: NodeJS.Signals): number {
  let sent = 0;
  for (const { pid, start } of snapshot) {
    if (statOf(pid)?.start !== start) continue;
    try {
      process.kill(pid, signal);
      sent++;
    } catch {
      // exited meanwhile
    }
  }
  return sent;
}

/** SIGKILLs the processes of a snapshot that still run; returns how many. */
export const killSnapshot = (snapshot: ProcessIdentity[]): number => signalSnapshot(snapshot, "SIGKILL");

/** Whether a process of a snapshot still runs. */
export const snapshotAlive = (snapshot: ProcessIdentity[]): boolean => snapshot.some(({ pid, start }) => statOf(pid)?.start === start);

function carries(pid: number, needle: Buffer): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    return environ.subarray(0, needle.length - 1).equals(needle.subarray(1)) || environ.includes(needle);
  } catch {
    return false; // gone, or not ours to read
  }
}

/**
 * Live processes (Linux) that carry `marker` in their environment, plus their descendants,
 * never zot itself. Empty where there is no /proc.
 */
export function markedProcesses(marker: string, variable = RUN_MARKER_VAR): number[] {
  const needle = Buffer.from(`\0${variable}=${marker}\0`);
  const pids = numericEntries().filter((pid) => pid !== process.pid);
  const parents = new Map<number, number | undefined>(pids.map((pid) => [pid, parentOf(pid)]));
  const found = new Set(pids.filter((pid) => parents.get(pid) !== undefined && carries(pid, needle)));
  // Descendants that dropped the marker from their environment: children of marked ones.
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (parent !== undefined && !found.has(pid) && found.has(parent)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

/** SIGKILLs every process that carries `marker` (see markedProcesses); returns how many. */
export function killMarked(marker: string, variable = RUN_MARKER_VAR): number {
  let killed = 0;
  for (const pid of markedProcesses(marker, variable)) {
    try {
      process.kill(pid, "SIGKILL");
      killed++;
    } catch {
      // exited meanwhile
    }
  }
  return killed;
}

// The exit-time safety net, as for process groups: markers of extensions still running when zot
// exits without a graceful shutdown.
const liveMarkers = new Map<string, string>();
let exitHookInstalled = false;

export function trackMarker(marker: string, variable = RUN_MARKER_VAR): void {
  if (process.platform !== "linux") return;
  liveMarkers.set(marker, variable);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [m, variable] of liveMarkers) killMarked(m, variable);
  });
}

export function untrackMarker(marker: string): void {
  liveMarkers.delete(marker);
}
