// Processes that left an extension's process group (a daemon that called setsid()) and would
// outlive zot. Every extension is started with a marker in its environment, which its
// descendants inherit whatever they do to their session or parent; on Linux, /proc shows each
// process's environment and parent, so at shutdown zot finds the processes that carry the marker,
// and the descendants of those, and stops them. A descendant that clears its environment and
// whose marked parent is gone can still escape; so can anything on platforms without /proc.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** The environment variable that marks an extension's processes. */
export const RUN_MARKER_VAR = "ZOT_EXTENSION_RUN";

export function newRunMarker(): string {
  return randomBytes(9).toString("hex");
}

function numericEntries(): number[] {
  try {
    return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number);
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" || fields[0] === "X" ? undefined : Number(fields[1]);
  } catch {
    return undefined;
  }
}

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
export function markedProcesses(marker: string): number[] {
  const needle = Buffer.from(`\0${RUN_MARKER_VAR}=${marker}\0`);
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
export function killMarked(marker: string): number {
  let killed = 0;
  for (const pid of markedProcesses(marker)) {
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
const liveMarkers = new Set<string>();
let exitHookInstalled = false;

export function trackMarker(marker: string): void {
  if (process.platform !== "linux") return;
  liveMarkers.add(marker);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const m of liveMarkers) killMarked(m);
  });
}

export function untrackMarker(marker: string): void {
  liveMarkers.delete(marker);
}
