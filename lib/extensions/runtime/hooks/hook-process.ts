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
}

export interface HookProcessResult {
  /** null when it was killed or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
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
  proc.stdin.on("error", () => {}); // a hook that does not read its input closes the pipe early
  proc.stdin.end(request.input);
  let timedOut = false;
  let cancelled = false;
  const stop = () => void proc.terminate(request.killGraceMs, () => proc.log(`hook did not stop within ${request.killGraceMs} ms: killed`));
  const timer = setTimeout(() => {
    timedOut = true;
    proc.log(`hook timed out after ${request.timeoutMs} ms: ${request.command}`);
    stop();
  }, request.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  if (request.signal?.aborted) onAbort();
  try {
    const status = await proc.exited;
    const err = stderr();
    if (err.trim()) proc.log(`hook stderr: ${err.trimEnd()}`);
    const abnormal = status.error ?? (status.signal ? describeExit(status) : undefined);
    return { code: status.code, stdout: stdout(), stderr: err, timedOut, cancelled, isolation: proc.isolation, ...(abnormal ? { error: abnormal } : {}) };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
    // What it started and left behind (a background job) goes with it.
    await proc.terminate(0, () => {});
    proc.stopEscapees();
    proc.dispose();
  }
}
