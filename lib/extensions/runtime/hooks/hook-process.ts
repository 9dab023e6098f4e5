// One run of one command hook: the command under bash (sh where bash is missing), started the
// way zot starts extensions (spawnExtension: the environment filter, the PID namespace or process
// group, a session of its own so no controlling terminal, the log), its input on stdin, stdout
// and stderr read (bounded), and a deadline. When it exits, what it left running is stopped:
// a hook never outlives its run.
import type { Readable } from "node:stream";
import { findShell } from "../../../tools/shell.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import { describeExit, spawnExtension, type IsolationReport } from "../spawn.ts";

/** Output kept of each stream; past it the rest is read and dropped. */
export const HOOK_OUTPUT_MAX_BYTES = 1024 * 1024;

export interface HookProcessRequest {
  /** The bundle's name (its log is `ext-<name>.log`). */
  name: string;
  dir: string;
  command: string;
  cwd: string;
  env: Record<string, string>;
  input: string;
  timeoutMs: number;
  logPath: string;
  isolation?: Isolation | undefined;
  allowEnv?: string[];
  /** Where Python keeps its bytecode (never in the hook's folder, whose content trust may pin). */
  pythonCacheDir?: string | undefined;
  killGraceMs: number;
  signal?: AbortSignal;
  /**
   * When given, a hook whose first line of stdout is `{"async": true}` (optionally with
   * `asyncTimeout` in ms) goes on in the background: the run returns `detached` at once, `signal`
   * no longer applies (`lifetime` does), and `onDetach` receives the rest of the run.
   */
  onDetach?: (rest: Promise<HookProcessResult>) => void;
  lifetime?: AbortSignal;
}

export interface HookProcessResult {
  /** null when it was killed or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** It said `{"async": true}` first and goes on in the background. */
  detached?: boolean;
  /** Why it could not run or how it ended abnormally (spawn failure, signal). */
  error?: string;
  /** How it was isolated (doctor shows the runner's). */
  isolation?: IsolationReport;
}

function collect(stream: Readable | undefined): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on("data", (chunk: Buffer) => {
    if (size >= HOOK_OUTPUT_MAX_BYTES) return;
    chunks.push(chunk.subarray(0, HOOK_OUTPUT_MAX_BYTES - size));
    size += chunk.length;
  });
  stream?.on("error", () => {});
  return () => Buffer.concat(chunks).toString("utf8");
}

/** The time a hook asks for when its first line of output says it goes on in the background, or undefined. */
export function asyncAnnouncement(line: string, fallbackMs: number): number | undefined {
  try {
    const said: unknown = JSON.parse(line);
    if (typeof said !== "object" || said === null || (said as { async?: unknown }).async !== true) return undefined;
    const ms = (said as { asyncTimeout?: unknown }).asyncTimeout;
    return typeof ms === "number" && ms > 0 ? ms : fallbackMs;
  } catch {
    return undefined;
  }
}

function firstLineOf(stream: Readable | undefined): Promise<string> {
  return new Promise((resolve) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const end = seen.indexOf("\n");
      if (end >= 0 || seen.length > 4096) done(seen.slice(0, end >= 0 ? end : undefined));
    };
    const done = (line: string) => {
      stream?.off("data", onData);
      resolve(line.trim());
    };
    stream?.on("data", onData);
    stream?.once("end", () => done(seen));
    if (!stream) resolve("");
  });
}

export async function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  let proc;
  try {
    proc = spawnExtension({ name: request.name, dir: request.dir, exec: findShell(), args: ["-c", request.command],
      logPath: request.logPath, cwd: request.cwd, env: request.env, isolation: request.isolation, allowEnv: request.allowEnv ?? [], stderr: "pipe",
      ...(request.pythonCacheDir ? { pythonCacheDir: request.pythonCacheDir } : {}) });
  } catch (err) {
    return { code: null, stdout: "", stderr: "", timedOut: false, cancelled: false, error: `cannot start: ${(err as Error).message}` };
  }
  const stdout = collect(proc.stdout);
  const stderr = collect(proc.stderr);
  const firstLine = request.onDetach ? firstLineOf(proc.stdout) : undefined;
  proc.stdin.on("error", () => {}); // a hook that does not read its input closes the pipe early
  proc.stdin.end(request.input);
  let timedOut = false;
  let cancelled = false;
  const stop = () => void proc.terminate(request.killGraceMs, () => proc.log(`hook did not stop within ${request.killGraceMs} ms: killed`));
  const deadline = (ms: number) => setTimeout(() => {
    timedOut = true;
    proc.log(`hook timed out after ${ms} ms: ${request.command}`);
    stop();
  }, ms);
  let timer = deadline(request.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  let signal = request.signal;
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const finished = (async (): Promise<HookProcessResult> => {
    try {
      const status = await proc.exited;
      const err = stderr();
      if (err.trim()) proc.log(`hook stderr: ${err.trimEnd()}`);
      const abnormal = status.error ?? (status.signal ? describeExit(status) : undefined);
      return { code: status.code, stdout: stdout(), stderr: err, timedOut, cancelled, isolation: proc.isolation, ...(abnormal ? { error: abnormal } : {}) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // What it started and left behind (a background job) goes with it.
      await proc.terminate(0, () => {});
      proc.stopEscapees();
      proc.dispose();
    }
  })();
  if (!firstLine || !request.onDetach) return finished;
  const line = await Promise.race([firstLine, finished.then(() => undefined)]);
  const backgroundMs = line === undefined ? undefined : asyncAnnouncement(line, request.timeoutMs);
  if (backgroundMs === undefined) return finished;
  // It goes on by itself: the moment's deadline and cancel give way to its own and the runner's lifetime.
  clearTimeout(timer);
  timer = deadline(backgroundMs);
  signal?.removeEventListener("abort", onAbort);
  signal = request.lifetime;
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  proc.log(`hook goes on in the background (up to ${backgroundMs} ms): ${request.command}`);
  request.onDetach(finished);
  return { code: null, stdout: "", stderr: "", timedOut: false, cancelled: false, detached: true };
}
