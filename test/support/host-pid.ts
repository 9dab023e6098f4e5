// Pids that extensions report about themselves. A full-access extension runs in a PID namespace
// with a /proc of its own (no process outside it is visible), so it cannot learn its pid as the
// host sees it: it writes `<pid in its namespace>@<its namespace>` (`readlink /proc/self` and
// `readlink /proc/self/ns/pid`), and the test finds the host pid of that process here.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** A pid that no process has (above any pid_max): what a process that is gone translates to. */
export const NO_PROCESS = 2 ** 31 - 1;

/** The host pid of a reported `pid` or `pid@pid:[inode]`; NO_PROCESS when that process is gone. */
export function hostPid(reported: string): number {
  const [pid, namespace] = reported.trim().split("@");
  if (!namespace) return Number(pid);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/pid`) !== namespace) continue;
      const nspid = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]?.trim().split(/\s+/);
      if (nspid?.at(-1) === pid) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return NO_PROCESS;
}

/** The host pid written in `file` (see hostPid). */
export const hostPidIn = (file: string): number => hostPid(readFileSync(file, "utf8"));

