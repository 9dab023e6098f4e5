// The host side of the wire for SDK tests: a thin wrapper of the `zot ext test` driver
// (ConformanceDriver) around any command, with stderr kept in memory. It is deliberately not the
// real host (no handshake, no timeouts of its own beyond `next`), so SDK tests see exactly what
// the extension wrote: every stdout line, empty ones included.
import { spawn } from "node:child_process";
import { ConformanceDriver, type StdoutLine } from "../../lib/extensions/authoring/conformance/driver.ts";
import { signalGroup } from "../../lib/process/group.ts";

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
  /** Stdout lines that were not a JSON object (a protocol violation), empty lines included. */
  readonly invalidLines: string[];
  /** JSON objects on stdout that the protocol's schemas refuse, each with the reason. */
  readonly invalidFrames: string[];
  /** Everything the extension wrote to stderr so far (plus a spawn error, if any). */
  stderr(): string;
  /** Settles once the process has exited and its stdout is fully read. */
  exited: Promise<ExitStatus>;
  /** Ends stdin, waits up to `graceMs` (default 2000) for exit, then SIGKILLs the group. */
  close(graceMs?: number): Promise<ExitStatus>;
}

/** Spawns `command args` in its own process group with piped stdio. */
export function startDriver(command: string, args: string[] = [], options: DriverOptions = {}): ExtDriver {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true, // own process group, so close() can kill grandchildren too
  });
  let stderrText = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderrText += chunk.toString("utf8");
  });
  child.on("error", (err) => {
    stderrText += `\n[driver] spawn failed: ${err.message}`;
  });
  const exited = new Promise<ExitStatus>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const driver = new ConformanceDriver({ pid: child.pid, stdin: child.stdin, stdout: child.stdout, exited },
    { keepEmptyLines: true });

  const frameLines = (): StdoutLine[] => driver.lines.filter((line) => line.json !== undefined);
  const consumed = new Set<number>();
  const describe = (why: string): Error => {
    const unconsumed = frameLines().filter((line) => !consumed.has(line.index)).map((line) => line.json);
    return new Error(`${why}\nunconsumed frames: ${JSON.stringify(unconsumed)}\nstderr tail: ${stderrText.slice(-2000)}`);
  };

  return {
    send(frame) {
      driver.sendRaw(`${JSON.stringify(frame)}\n`);
    },
    sendRaw(data) {
      driver.sendRaw(data);
    },
    async next(predicate = () => true, timeoutMs = 5_000) {
      // Claiming inside the match gives each frame to one waiter only, the earliest one asking.
      const claim = (line: StdoutLine): boolean => {
        if (line.json === undefined || consumed.has(line.index) || !predicate(line.json)) return false;
        consumed.add(line.index);
        return true;
      };
      const outcome = await driver.waitFor(claim, timeoutMs);
      if (outcome.kind === "line") return outcome.line.json!;
      if (outcome.kind === "timeout") throw describe(`no matching frame within ${timeoutMs} ms`);
      const { code, signal } = outcome.status;
      throw describe(`extension exited (code ${code}, signal ${signal}) before a matching frame`);
    },
    get frames() {
      return frameLines().map((line) => line.json!);
    },
    get invalidLines() {
      return driver.lines.filter((line) => line.json === undefined).map((line) => line.text);
    },
    get invalidFrames() {
      return frameLines().filter((line) => !line.frame).map((line) => `${line.error} in ${line.text.slice(0, 200)}`);
    },
    stderr: () => stderrText,
    exited,
    async close(graceMs = 2_000) {
      if (!driver.exitStatus()) driver.endInput();
      const timer = setTimeout(() => child.pid !== undefined && signalGroup(child.pid, "SIGKILL"), graceMs);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
  };
}
