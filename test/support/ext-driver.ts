// A minimal host-side driver for SDK tests: spawns an extension, writes frames to its stdin and
// hands back the JSON lines it prints. It is deliberately not the real host (no validation, no
// timeouts of its own beyond `next`), so SDK tests see exactly what the extension wrote.
import { spawn } from "node:child_process";

/** One parsed stdout line of the extension. */
export type Frame = Record<string, unknown>;

export interface DriverOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ExtDriver {
  /** Writes `frame` as one JSON line to the extension's stdin. */
  send(frame: object): void;
  /** Writes raw text or bytes to stdin as is (to test framing: `\r\n`, malformed lines, …). */
  sendRaw(data: string | Uint8Array): void;
  /**
   * Resolves with the earliest not-yet-consumed frame matching `predicate` (default: any) and
   * consumes it; frames that do not match stay available to later calls. Rejects after
   * `timeoutMs` (default 5000) or once the extension has exited without a match, with the
   * unconsumed frames and the stderr tail in the message.
   */
  next(predicate?: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  /** Every frame received so far, in order, consumed or not. */
  readonly frames: Frame[];
  /** Non-empty stdout lines that were not a JSON object (a protocol violation). */
  readonly invalidLines: string[];
  /** Everything the extension wrote to stderr so far (plus a spawn error, if any). */
  stderr(): string;
  /** Settles once the process has exited and its stdout is fully read. */
  exited: Promise<ExitStatus>;
  /** Ends stdin, waits up to `graceMs` (default 2000) for exit, then SIGKILLs the group. */
  close(graceMs?: number): Promise<ExitStatus>;
}

interface Waiter {
  predicate: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** Spawns `command args` in its own process group with piped stdio. */
export function startDriver(command: string, args: string[] = [], options: DriverOptions = {}): ExtDriver {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true, // own process group, so close() can kill grandchildren too
  });
  const frames: Frame[] = [];
  const invalidLines: string[] = [];
  const unconsumed: Frame[] = [];
  const waiters: Waiter[] = [];
  let stderrText = "";
  let pending: Buffer = Buffer.alloc(0);
  let done = false;

  const describe = (why: string): Error =>
    new Error(
      `${why}\nunconsumed frames: ${JSON.stringify(unconsumed)}\nstderr tail: ${stderrText.slice(-2000)}`,
    );

  const deliver = (frame: Frame): void => {
    frames.push(frame);
    const i = waiters.findIndex((w) => w.predicate(frame));
    if (i < 0) {
      unconsumed.push(frame);
      return;
    }
    const [waiter] = waiters.splice(i, 1);
    clearTimeout(waiter!.timer);
    waiter!.resolve(frame);
  };

  const acceptLine = (bytes: Buffer): void => {
    const line = bytes.toString("utf8");
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return deliver(value as Frame);
    } catch {
      // fall through: recorded as invalid below
    }
    invalidLines.push(line);
  };

  // Split on "\n" only: JSON strings may legally contain U+2028/U+2029.
  child.stdout.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let nl: number;
    while ((nl = pending.indexOf(0x0a)) >= 0) {
      acceptLine(pending.subarray(0, nl));
      pending = pending.subarray(nl + 1);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderrText += chunk.toString("utf8");
  });
  // Writes after the child exited fail with EPIPE; tests observe that through `exited`.
  child.stdin.on("error", () => {});

  const exited = new Promise<ExitStatus>((resolve) => {
    child.on("error", (err) => {
      stderrText += `\n[driver] spawn failed: ${err.message}`;
    });
    child.on("close", (code, signal) => {
      if (pending.length > 0) acceptLine(pending); // a last line without "\n"
      pending = Buffer.alloc(0);
      done = true;
      for (const w of waiters.splice(0)) {
        clearTimeout(w.timer);
        w.reject(describe(`extension exited (code ${code}, signal ${signal}) before a matching frame`));
      }
      resolve({ code, signal });
    });
  });

  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };

  return {
    send(frame) {
      child.stdin.write(`${JSON.stringify(frame)}\n`);
    },
    sendRaw(data) {
      child.stdin.write(data);
    },
    next(predicate = () => true, timeoutMs = 5_000) {
      const i = unconsumed.findIndex(predicate);
      if (i >= 0) return Promise.resolve(unconsumed.splice(i, 1)[0]!);
      if (done) return Promise.reject(describe("extension already exited; no matching frame"));
      return new Promise<Frame>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.splice(waiters.indexOf(waiter), 1);
            reject(describe(`no matching frame within ${timeoutMs} ms`));
          }, timeoutMs),
        };
        waiters.push(waiter);
      });
    },
    frames,
    invalidLines,
    stderr: () => stderrText,
    exited,
    async close(graceMs = 2_000) {
      if (!done) child.stdin.end();
      const timer = setTimeout(killGroup, graceMs);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
  };
}
