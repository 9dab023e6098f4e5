// Stopping an extension that runs in a PID namespace bubblewrap set up. bubblewrap's child is
// the namespace's init and the extension runs below it, in a session of its own, so a signal to
// bubblewrap's process group never reaches it: SIGTERM goes to every process inside (what the
// extension runs, and what it left behind, which init adopted), and SIGKILL to bubblewrap, whose
// death kills init, and init's death every process of the namespace.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { descendantsOf, signalSnapshot, snapshotAlive } from "./escapees.ts";
import { groupAlive, processAlive, signalGroup, waitGroupGone } from "./group.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** SIGTERM inside, `graceMs` to exit, then SIGKILL; resolves true once bubblewrap and every process inside are gone. */
export async function terminateNamespace(bwrapPid: number, graceMs: number, onSigkill: () => void, reapMs = 2_000): Promise<boolean> {
  const inside = descendantsOf(bwrapPid).filter((p) => p.parent !== bwrapPid);
  if (!groupAlive(bwrapPid)) return !snapshotAlive(inside);
  signalSnapshot(inside, "SIGTERM");
  if (!(await waitGroupGone(bwrapPid, graceMs))) {
    onSigkill();
    signalGroup(bwrapPid, "SIGKILL");
    if (!(await waitGroupGone(bwrapPid, reapMs))) return false;
  }
  // The namespace dies with its init; give the kernel a moment to finish the processes inside.
  const deadline = Date.now() + reapMs;
  while (snapshotAlive(inside)) {
    if (Date.now() >= deadline) return false;
    await sleep(5);
  }
  return true;
}

function readlinkOrUndefined(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** The processes below bubblewrap's init (the extension and what it started), from /proc's children lists. */
function insideProcesses(bwrapPid: number): number[] {
  const children = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const found: number[] = [];
  const queue = children(bwrapPid).flatMap(children);
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...children(pid));
  }
  return found;
}

/**
 * Whether a process inside bubblewrap's namespace still holds the pipe that is bubblewrap's fd
 * `fd` (its stdout: 1). bubblewrap and its init keep their copies of the extension's stdio for as
 * long as the namespace lives, so an extension that closes its stdout gives zot no end of file:
 * this is how zot notices. undefined when /proc cannot tell.
 */
export function namespaceHoldsPipe(bwrapPid: number, fd = 1): boolean | undefined {
  const pipe = readlinkOrUndefined(`/proc/${bwrapPid}/fd/${fd}`);
  if (!pipe?.startsWith("pipe:") && !pipe?.startsWith("socket:")) return undefined; // Node gives a child socket pairs
  for (const pid of insideProcesses(bwrapPid)) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    if (fds.some((entry) => readlinkOrUndefined(`/proc/${pid}/fd/${entry}`) === pipe)) return true;
  }
  return false;
}

/**
 * Whether anything still runs below bubblewrap's init. Between the extension's exit and
 * bubblewrap's own, nothing inside holds the pipe and nothing runs: that is an exit on its way,
 * not an extension that closed its stdout and kept running.
 */
export function namespaceRunning(bwrapPid: number): boolean {
  return insideProcesses(bwrapPid).some(processAlive);
}
