// The end of the run: `shutdown` → `shutdown_ack` and exit within the grace period, nothing left
// in the extension's process group, and the verdict on everything it wrote to stdout.
import { terminateGroup, waitGroupGone } from "../../../process/group.ts";
import { exitPhrase, type Session } from "./session.ts";

export async function checkShutdown(s: Session): Promise<void> {
  const { driver, list, timeouts } = s;
  const name = "shutdown";
  const before = driver.exitStatus();
  if (before) {
    if (s.exitReported) list.skip(name, `the extension is no longer running (${exitPhrase(before)})`);
    else list.fail(name, `${exitPhrase(before)} before shutdown was sent`);
    return;
  }
  const mark = driver.lines.length;
  const sentAt = driver.elapsed();
  driver.send({ type: "shutdown" });
  await driver.waitFor((l) => l.frame?.type === "shutdown_ack", timeouts.shutdownGrace, mark);
  const exited = await driver.waitExit(Math.max(0, timeouts.shutdownGrace - (driver.elapsed() - sentAt)));
  const acked = driver.lines.slice(mark).some((l) => l.frame?.type === "shutdown_ack");
  if (!exited) {
    s.terminated = true;
    if (driver.pid !== undefined) await terminateGroup(driver.pid, timeouts.shutdownGrace);
    const what = acked ? "sent shutdown_ack but was still running" : "no shutdown_ack and still running";
    list.fail(name, `${what} ${timeouts.shutdownGrace} ms after shutdown; the checker terminated it (zot does the same: SIGTERM, then SIGKILL)`);
    return;
  }
  const status = driver.exitStatus()!;
  const took = driver.elapsed() - sentAt;
  if (!acked) list.fail(name, `${exitPhrase(status)} ${took} ms after shutdown without sending shutdown_ack`);
  else if (status.code !== 0) list.warn(name, `shutdown_ack, then ${exitPhrase(status)} (${took} ms)`);
  else list.pass(name, `shutdown_ack, then exited with status 0 in ${took} ms`);
}

/** After the extension itself exited: anything it forked must be gone too (zot reaps holdouts). */
export async function checkProcessGroup(s: Session): Promise<void> {
  const name = "process group";
  const pid = s.driver.pid;
  if (pid === undefined) return void s.list.skip(name, "the extension never started");
  if (s.terminated) return void s.list.skip(name, "the checker terminated its whole process group, so nothing could outlive it");
  if (await waitGroupGone(pid, s.timeouts.settle)) return void s.list.pass(name, "nothing left running");
  await terminateGroup(pid, s.timeouts.shutdownGrace);
  s.list.fail(name, "a process it started was still running in its process group after it exited; the checker killed it " +
    "(stop your child processes on shutdown)");
}

/** Every stdout line must be a valid frame: zot ignores (and logs) anything else. */
export function checkStdout(s: Session): void {
  const lines = s.driver.lines;
  const bad = lines.filter((l) => !l.frame);
  if (bad.length === 0) return void s.list.pass("stdout", `${lines.length} line${lines.length === 1 ? "" : "s"}, all valid frames`);
  const unknown = [...new Set(bad.filter((l) => l.unknownType).map((l) => String(l.json!.type)))];
  const first = bad[0]!;
  s.list.fail("stdout", `${bad.length} of ${lines.length} lines are not valid frames (zot ignores them); ` +
    `first, line ${first.index + 1}: ${first.error}` +
    (unknown.length ? `; unknown frame types: ${unknown.map((t) => JSON.stringify(t)).join(", ")}` : "") +
    (bad.some((l) => !l.json) ? " (write logs to stderr, never to stdout)" : ""));
}
