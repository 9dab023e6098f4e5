// `$ZOT_HOME/logs/zot.log`: what zot notes about itself where no one is left to read it (an rpc
// client that went away mid-run). Best effort: a log that cannot be written is not an error.
import { appendFileSync } from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir } from "./fs/private-dir.ts";
import type { ZotPaths } from "./paths.ts";

export function appendHostLog(paths: ZotPaths, line: string): void {
  try {
    ensurePrivateDir(dirname(paths.hostLog));
    appendFileSync(paths.hostLog, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  } catch {
    // nowhere to say it
  }
}
