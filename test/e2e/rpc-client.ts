// Drives `zot --mode rpc` over its stdio for the rpc end-to-end tests.
import type { World } from "./support.ts";

/** Drives `zot --mode rpc` over its stdio. */
export function rpc(w: World, args: string[] = [], env: Record<string, string> = {}) {
  const child = w.start(["--mode", "rpc", ...args], { env });
  const lines: Array<Record<string, any>> = [];
  const waiters: Array<() => void> = [];
  let buffer = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const waitFor = async (pred: (l: Record<string, any>) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
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
