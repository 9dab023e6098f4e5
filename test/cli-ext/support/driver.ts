// A small inline protocol driver: spawn an extension the way its manifest says (exec resolved as
// the host resolves it: a bare name like "node" is looked up on PATH), write JSON lines to its
// stdin, read JSON lines from its stdout.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { resolveExec } from "../../../lib/extensions/runtime/spawn.ts";

export type Frame = Record<string, unknown>;

export interface Driven {
  send(frame: Frame): void;
  /** The next stdout frame (in order); rejects after `timeoutMs` or when stdout ends. */
  next(timeoutMs?: number): Promise<Frame>;
  exited: Promise<number | null>;
  stderr(): string;
  child: ChildProcess;
}

export function spawnExtension(dir: string): Driven {
  const manifest = JSON.parse(readFileSync(resolve(dir, "extension.json"), "utf8")) as { exec: string; args?: string[] };
  const child = spawn(resolveExec(dir, manifest.exec), manifest.args ?? [], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  let buffered = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => { stderr += d; });
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim()) frames.push(JSON.parse(line) as Frame);
    }
    waiters.splice(0).forEach((w) => w());
  });
  child.stdout!.on("end", () => {
    ended = true;
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    send: (frame) => child.stdin!.write(`${JSON.stringify(frame)}\n`),
    next(timeoutMs = 5_000) {
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no frame within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const take = () => {
          if (frames.length > 0) {
            clearTimeout(timer);
            done(frames.shift() as Frame);
          } else if (ended) {
            clearTimeout(timer);
            fail(new Error(`stdout ended; stderr: ${stderr}`));
          } else waiters.push(take);
        };
        take();
      });
    },
  };
}
