// Standard output and error without process.stdout and process.stderr. Building either stream
// loads the runtime's stream machinery, which costs a compiled one-shot run about a fifth of its
// time and 9 MB (bench/startup.ts; Bun builds them even when a program only looks at their
// property), so the one-shot modes and the plain printing commands write to fd 1 and 2 directly,
// blocking as a native CLI does. The other modes and commands use the streams.
import { fstatSync, statSync, writeSync, type Stats } from "node:fs";

type StdName = "stdout" | "stderr";
let direct = false;
let guarded = false;

/**
 * This run writes stdout and stderr directly (json and print modes, plain printing). Everything
 * such a run writes is on its way when write returns, so it exits without draining a stream.
 */
export function useDirectStdio(): void {
  direct = true;
}

export function usesDirectStdio(): boolean {
  return direct;
}

/**
 * This run writes through process.stdout and process.stderr (the REPL, rpc, acp, the
 * subcommands): called before any of them writes. A stdout or stderr whose reader went away
 * (`zot … 2>&1 | head -1`) has nobody left to tell, so its write errors must not crash zot before
 * it has stopped its extensions: a command that only prints finishes with its output dropped,
 * the modes that run an agent stop their run (modes/mode-output.ts).
 */
export function useStdStreams(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on("error", () => {});
  process.stderr.on("error", () => {});
}

/** What a mode writes its output to: process.stdout's shape, as much of it as the modes use. */
export interface TextSink {
  write(text: string): unknown;
  on(event: "error", listener: (err: unknown) => void): unknown;
}

const encoder = new TextEncoder();
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      // A descriptor another process made non-blocking: wait for its reader, as a blocking write would.
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      Atomics.wait(pauseCell, 0, 0, 2);
    }
  }
}

/** fd 1 or 2 as a TextSink: a failed direct write throws (EPIPE when the reader went away). */
function stdSink(name: StdName, fd: number): TextSink {
  return {
    write(text) {
      if (direct) return writeAll(fd, text);
      useStdStreams();
      return process[name].write(text);
    },
    on(_event, listener) {
      if (!direct) process[name].on("error", listener);
      return this;
    },
  };
}

export const stdoutSink: TextSink = stdSink("stdout", 1);
const stderrSink: TextSink = stdSink("stderr", 2);

/** Writes to stdout; output nobody can read any more is dropped. */
export function writeStdout(text: string): void {
  dropFailure(() => stdoutSink.write(text));
}

/** Writes to stderr, for a message that has nowhere else to go when it fails. */
export function writeStderr(text: string): void {
  dropFailure(() => stderrSink.write(text));
}

function dropFailure(write: () => unknown): void {
  try {
    write();
  } catch {
    // the reader went away or the device failed: nobody is left to tell
  }
}

/**
 * What an fd is, from fstat alone: loading node:tty to ask costs a compiled run more than the
 * rest of its start, so any character device but /dev/null counts as a terminal (treating a rare
 * other device as one only makes its output plainer).
 */
export function fdKind(fd: number): "file" | "terminal" | "null" | "other" {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return "other"; // closed
  }
  if (stat.isFile()) return "file";
  if (!stat.isCharacterDevice()) return "other";
  return isDevNull(stat) ? "null" : "terminal";
}

function isDevNull(stat: Stats): boolean {
  try {
    return stat.rdev === statSync("/dev/null").rdev;
  } catch {
    return false; // no /dev/null (Windows)
  }
}
