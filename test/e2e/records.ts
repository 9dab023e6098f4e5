// What the end-to-end tests read back after zot ran: the frames a recording extension received
// (one JSON line each) and the session transcripts zot saved.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The frames a recording extension appended to `path`, oldest first. */
export function recordedFrames(path: string): Array<Record<string, any>> {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}

/** Every session file under `$ZOT_HOME/sessions`, as one text. */
export function savedTranscripts(home: string): string {
  return readdirSync(join(home, "sessions"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "utf8")).join("\n");
}

/** Polls `fn` until it returns something truthy; fails naming `what` after `ms`. */
export async function pollFor<T>(fn: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}
