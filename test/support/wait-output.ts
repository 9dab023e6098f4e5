// Waiting for a started process to say it is ready: it prints a line (its port, its URL) that a
// test needs before going on. Everything it writes to stderr is kept for the test to read.
import type { ChildProcess } from "node:child_process";

export interface Output {
  /** The first capture group of the first match (the whole match without one). */
  match: string;
  /** All of the process's stderr so far and from now on. */
  stderr(): string;
}

/** Resolves once `pattern` matches what `child` wrote to `stream`; rejects, with its stderr, if it exits first. */
export function waitForOutput(child: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp): Promise<Output> {
  let stderr = "";
  let seen = "";
  const stderrOf = () => stderr;
  return new Promise((resolve, reject) => {
    const look = (text: string) => {
      seen += text;
      const m = pattern.exec(seen);
      if (m) resolve({ match: m[1] ?? m[0], stderr: stderrOf });
    };
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (stream === "stderr") look(d);
    });
    if (stream === "stdout") child.stdout!.setEncoding("utf8").on("data", look);
    child.once("close", (code, signal) => reject(new Error(`the process ended (${signal ?? code}) before printing ${pattern}: ${stderr}`)));
  });
}
