// One scripted request/reply: send a host frame carrying an id, wait for the extension's reply
// of the expected type with that id, and say in one line what went wrong when it did not come.
import type { ExtensionFrame } from "../../../protocol/index.ts";
import type { StdoutLine } from "./driver.ts";
import { exitPhrase, goneReason, type Session } from "./session.ts";

export type Exchange =
  | { ok: true; frame: ExtensionFrame; ms: number; line: StdoutLine }
  | { ok: false; detail: string };

/** Sends `frame` and waits `ms` for a valid `replyType` frame with the same id. */
export async function exchange(
  s: Session,
  frame: { type: string; id: string } & Record<string, unknown>,
  replyType: string,
  ms: number,
): Promise<Exchange> {
  const { driver } = s;
  const mark = driver.lines.length;
  const sentAt = driver.elapsed();
  const outcome = await driver.request(frame, replyType, ms);
  if (outcome.kind === "line") {
    const { line } = outcome;
    if (!line.frame) return { ok: false, detail: `invalid ${replyType}: ${line.error}` };
    return { ok: true, frame: line.frame, ms: line.at - sentAt, line };
  }
  if (outcome.kind === "exited") {
    s.exitReported = true;
    return { ok: false, detail: `${exitPhrase(outcome.status)} while ${frame.type} "${frame.id}" waited for its ${replyType}` };
  }
  // Replies that did arrive, but for another id, are the usual bug: say so.
  const strays = driver.lines.slice(mark)
    .filter((l) => l.json?.type === replyType)
    .map((l) => JSON.stringify(l.json!.id ?? null));
  const got = strays.length ? `; got a ${replyType} for id ${strays.slice(0, 3).join(", ")} instead` : "";
  return { ok: false, detail: `no ${replyType} for id "${frame.id}" within ${ms} ms${got}` };
}

/** Runs `check` unless the extension is gone, in which case it records a skip named `name`. */
export async function whileRunning(s: Session, name: string, check: () => Promise<void>): Promise<void> {
  const gone = goneReason(s);
  if (gone) s.list.skip(name, gone);
  else await check();
}

/** Waits `settle` ms; the one-line reason when the extension exited meanwhile. */
export async function settleAlive(s: Session): Promise<string | undefined> {
  if (await s.driver.waitExit(s.timeouts.settle)) {
    s.exitReported = true;
    return exitPhrase(s.driver.exitStatus()!);
  }
  return undefined;
}
