// Drives `zot --mode rpc` over its stdio for the rpc end-to-end tests. Every line zot prints is
// checked against the published stream schema; a line that does not match fails the test.
import { checkStreamLine } from "../support/stream-check.ts";
import type { World } from "./support.ts";

/** Drives `zot --mode rpc` over its stdio. */
export function rpc(w: World, args: string[] = [], env: Record<string, string> = {}) {
  const child = w.start(["--mode", "rpc", ...args], { env });
  const lines: Array<Record<string, any>> = [];
  const problems: string[] = [];
  const waiters: Array<() => void> = [];
  let buffer = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const text = buffer.slice(0, nl);
      try {
        lines.push(checkStreamLine(text));
      } catch (err) {
        problems.push((err as Error).message);
        lines.push(JSON.parse(text));
      }
      buffer = buffer.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  const checked = () => {
    if (problems.length > 0) throw new Error(problems.join("\n"));
  };
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code))).then((code) => {
    checked();
    return code;
  });
  const waitFor = async (pred: (l: Record<string, any>) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      checked();
      const found = lines.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(lines)}\n${stderr}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  let n = 0;
  return {
    lines,
    exited,
    stderr: () => stderr,
    send: (cmd: Record<string, unknown>) => child.stdin!.write(`${JSON.stringify(cmd)}\n`),
    /** Writes text as is (malformed lines). */
    raw: (text: string) => child.stdin!.write(text),
    async call(cmd: Record<string, unknown>) {
      const id = `r${++n}`;
      child.stdin!.write(`${JSON.stringify({ id, ...cmd })}\n`);
      return waitFor((l) => l.type === "response" && l.id === id);
    },
    waitFor,
    end: () => child.stdin!.end(),
  };
}
