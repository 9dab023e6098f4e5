// zot's own folders hold keys, sessions and logs that may quote secrets: only their owner may
// read them. A folder zot creates is 0700; one that exists with access for others (made by an
// older zot, or by mkdir under a 022 umask) is tightened when this user owns it.
import { chmodSync, mkdirSync, statSync } from "node:fs";

/** Makes `dir` (and any missing parent) exist, with no access for group or others. Best effort: never throws. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform === "win32") return;
    const stat = statSync(dir);
    if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(dir, stat.mode & 0o700);
  } catch {
    // a folder zot cannot make or tighten: whatever writes into it says so
  }
}
