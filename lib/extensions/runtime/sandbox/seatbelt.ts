// macOS: a sandbox-exec (Seatbelt) profile for a sandbox plan. Everything is denied except
// running programs, reading the plan's read-only paths, writing its read-write paths (and the
// terminal devices every program expects), and the network when the plan allows it.

import { realpathSync } from "node:fs";
import type { SandboxPlan } from "./plan.ts";

/** Seatbelt matches real paths (/tmp is /private/tmp on macOS). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A string literal of the profile language: backslashes and quotes escaped. */
const quote = (path: string) => `"${real(path).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function seatbeltProfile(plan: SandboxPlan): string {
  const subpaths = (paths: string[]) => paths.map((p) => `  (subpath ${quote(p)})`).join("\n");
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow process-exec)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    // Reading a folder's metadata on the way to an allowed path (realpath, getcwd).
    "(allow file-read-metadata)",
    `(allow file-read*\n  (literal "/")\n${subpaths(plan.readOnly)}\n${subpaths(plan.readWrite)})`,
    `(allow file-write*\n  (literal "/dev/null")\n  (literal "/dev/tty")\n  (literal "/dev/dtracehelper")\n${subpaths(plan.readWrite)})`,
  ];
  lines.push(plan.network ? "(allow network*)" : ";; no network: every socket stays denied");
  return `${lines.join("\n")}\n`;
}
