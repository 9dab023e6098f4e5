// Stopping an extension's process, for every driver: at once (a failure) or gracefully (a
// shutdown, whose polite part — draining frames and sending `shutdown`, or closing an MCP
// server's stdin — the driver does first within the same grace). Either way everything it
// started goes too, including what left its process group.
import { waitGroupGone } from "../../process/group.ts";
import type { ExtensionProcess } from "./spawn.ts";

/** SIGTERM, then SIGKILL, to everything it runs, saying in the log when SIGKILL was needed. */
async function terminate(proc: ExtensionProcess, graceMs: number): Promise<void> {
  const gone = await proc.terminate(graceMs, () => proc.log(`did not exit within ${graceMs} ms of SIGTERM; sending SIGKILL to its process group`));
  if (!gone) proc.log("its process group was still there after SIGKILL");
}

async function reap(proc: ExtensionProcess): Promise<void> {
  await proc.exited;
  proc.stopEscapees();
  await proc.treeGone();
  proc.dispose();
}

/** Kills it now: no `shutdown`, no wait for it to exit on its own. */
export async function killProcess(proc: ExtensionProcess | undefined, graceMs: number): Promise<void> {
  if (proc?.pid === undefined) return;
  proc.rememberDescendants();
  await terminate(proc, graceMs);
  await reap(proc);
}

/**
 * Waits until `deadline` (ms since the epoch) for it to exit after the driver asked it to, then
 * SIGTERM and SIGKILL its group; also stops children the leader left running.
 */
export async function stopProcess(proc: ExtensionProcess, graceMs: number, deadline: number): Promise<void> {
  const exitedInTime = await Promise.race([proc.exited.then(() => true), delay(Math.max(0, deadline - Date.now())).then(() => false)]);
  if (!exitedInTime) proc.log(`did not exit within ${graceMs} ms of shutdown; sending SIGTERM`);
  if (proc.pid !== undefined) {
    // The leader may be gone while children it forked still hold the group.
    if (!(await waitGroupGone(proc.pid, exitedInTime ? 50 : 0))) {
      if (exitedInTime) proc.log("exited, but processes it started were still running; stopping them");
      await terminate(proc, graceMs);
    }
  }
  await reap(proc);
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
