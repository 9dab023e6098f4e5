// Starting one extension subprocess: in its own folder and its own process group, with piped
// stdin/stdout and stderr appended straight to `$ZOT_HOME/logs/ext-<name>.log` (the child writes
// to the file itself, so a chatty stderr can never block on the host). The host appends its own
// diagnostics to the same log, prefixed `[zot]`.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { closeSync, fchmodSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { dirname } from "node:path";
import type { Readable, Writable } from "node:stream";
import { ensurePrivateDir } from "../../fs/private-dir.ts";
import { ZOT_VERSION } from "../../version.ts";
import { processAlive, terminateGroup, trackGroup, untrackGroup } from "../../process/group.ts";
import { namespaceHoldsPipe, namespaceRunning, terminateNamespace } from "../../process/namespace.ts";
import { descendantsOf, killMarked, killSnapshot, newRunMarker, snapshotAlive, type ProcessIdentity, RUN_MARKER_VAR, trackMarker, untrackMarker } from "../../process/escapees.ts";
import type { Isolation } from "./sandbox/for-candidate.ts";
import { explainSpawnError, interpreterProblem, notRunnable, resolveExec } from "./exec-resolve.ts";
import { launchLine, type IsolationReport, type LaunchLine } from "./launch-line.ts";
import { nodeStream } from "../../lazy-node.ts";

export type { IsolationReport } from "./launch-line.ts";

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It could not run: the spawn failed (ENOENT, EACCES, …) or its #! interpreter is missing. */
  error?: string;
  /** It exited while a process it started still held its stdout open (zot stopped reading). */
  stdoutHeldOpen?: boolean;
  /** The last line it wrote on stderr in this run, usually why it gave up (e.g. a missing runtime). */
  lastStderrLine?: string;
}

export interface SpawnRequest {
  name: string;
  dir: string;
  exec: string;
  args: string[];
  logPath: string;
  /** Default: the extension folder. */
  cwd?: string;
  /** Added to zot's environment for extensions. */
  env?: Record<string, string>;
  /** How to isolate it (isolationFor); absent: started as it is, as an embedder or a test asks. */
  isolation?: Isolation;
  /** Variables it gets although they look like credentials (config.json `extensions.<name>.env`). */
  allowEnv?: string[];
  /**
   * PYTHONPYCACHEPREFIX: Python keeps its bytecode there instead of in `__pycache__` folders of
   * the extension, so running it never changes its folder, and a planted .pyc there is never loaded.
   */
  pythonCacheDir?: string;
  /** "pipe": its stderr is read by the caller (a hook's reason) instead of going to the log. */
  stderr?: "log" | "pipe";
}

/** A running (or failed-to-start) extension subprocess. */
export interface ExtensionProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Its stderr, when the request asked for a pipe. */
  readonly stderr?: Readable;
  /** The executable actually started. */
  readonly command: string;
  /** The log path, when the log could be opened. */
  readonly logPath: string | undefined;
  /** Settles once the process has exited and its stdout ended (or could not start). */
  readonly exited: Promise<ExitStatus>;
  /**
   * Settles once stdout reaches end of file: true when the process was still running
   * STDOUT_LINGER_MS later (it can never answer again), false when it exited (normal exit, crash).
   */
  readonly stdoutClosedEarly: Promise<boolean>;
  /** The last known exit status, once exited. */
  exitStatus(): ExitStatus | undefined;
  /** Appends a `[zot]` diagnostic line to the extension's log. */
  log(message: string): void;
  /** Releases the log file descriptor (after the process is gone). */
  dispose(): void;
  /** hello_ack's data_dir: a writable folder of its own when sandboxed, else its folder. */
  readonly dataDir: string;
  /** How it was isolated: the sandbox, its mounts, the PID namespace (doctor shows it). */
  readonly isolation: IsolationReport;
  /**
   * SIGTERM to what it runs, up to `graceMs` to exit, then SIGKILL; resolves true once it is gone.
   * In a PID namespace the SIGTERM goes to the processes inside (the namespace has a session of
   * its own) and the SIGKILL to bubblewrap, which takes the namespace down with it.
   */
  terminate(graceMs: number, onSigkill: () => void): Promise<boolean>;
  /** Remembers its process tree now (before it is asked to stop), for stopEscapees. */
  rememberDescendants(): void;
  /**
   * Waits up to `ms` for the tree stopEscapees stopped to be gone (Linux): processes of a PID
   * namespace die with it, but the kernel may still be finishing them when bubblewrap has exited.
   */
  treeGone(ms?: number): Promise<boolean>;
  /**
   * Stops processes it started that left its process group (setsid) and outlived it: those
   * that carry its run marker, their descendants, and the remembered tree. Linux only
   * (elsewhere 0). Returns how many were stopped.
   */
  stopEscapees(): number;
}

export { resolveExec } from "./exec-resolve.ts";

/** Opens an extension's log to append, readable by its owner only (it may quote what the extension printed). */
function openLog(path: string, header: string): number | undefined {
  try {
    ensurePrivateDir(dirname(path));
    const fd = openSync(path, "a", 0o600);
    // A log an older zot made readable to others is tightened.
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    writeSync(fd, header);
    return fd;
  } catch {
    return undefined;
  }
}

/** How much of the log's end is read for the extension's last stderr line. */
const STDERR_TAIL_BYTES = 4096;
const STDERR_LINE_MAX = 300;

/** The last line the extension wrote to its log since `from` (zot's own `[zot]` lines skipped). */
function lastStderrLine(path: string, from: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r"); // the log's own descriptor is append-only
    const end = fstatSync(fd).size;
    const start = Math.max(from, end - STDERR_TAIL_BYTES);
    if (end <= start) return undefined;
    const buf = Buffer.alloc(end - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    const lines = buf.subarray(0, n).toString("utf8").split(/\r?\n/).map((l) => l.trim());
    const last = lines.filter((l) => l !== "" && !l.startsWith("[zot]")).pop();
    if (!last) return undefined;
    // Control characters out (it ends up on a terminal), and a bounded length.
    const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
    return clean.length > STDERR_LINE_MAX ? `${clean.slice(0, STDERR_LINE_MAX)}…` : clean;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeLogLine(fd: number | undefined, message: string): void {
  if (fd === undefined) return;
  try {
    writeSync(fd, `[zot] ${message.replace(/\n(?!$)/g, "\n[zot]   ")}\n`);
  } catch {
    // the log is best-effort
  }
}

function closeLog(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** An extension log without a process (an MCP server zot reaches over HTTP). */
export interface ExtensionLog {
  readonly logPath: string | undefined;
  log(message: string): void;
  dispose(): void;
}

export function openExtensionLog(path: string, what: string): ExtensionLog {
  let fd = openLog(path, `\n[zot] ${new Date().toISOString()} zot ${ZOT_VERSION} ${what}\n`);
  return {
    logPath: fd === undefined ? undefined : path,
    log: (message) => writeLogLine(fd, message),
    dispose() {
      closeLog(fd);
      fd = undefined;
    },
  };
}

/**
 * How long after the exit we keep reading stdout that a forked grandchild still holds open; and
 * how long after stdout's end of file a process that is exiting gets to report its exit.
 */
const STDOUT_LINGER_MS = 250;
/** How often zot looks whether an extension in a PID namespace still holds its stdout (it gives no end of file). */
const NAMESPACE_STDOUT_POLL_MS = 500;

export function spawnExtension(request: SpawnRequest): ExtensionProcess {
  const command = resolveExec(request.dir, request.exec);
  const header = `\n[zot] ${new Date().toISOString()} zot ${ZOT_VERSION} starting ${request.name}: ` +
    `${[command, ...request.args].join(" ")} (in ${request.cwd ?? request.dir})\n`;
  let logFd = openLog(request.logPath, header);
  /** Where this run's output starts in the log (taken before the spawn, which it can outrun). */
  const runStart = logFd === undefined ? 0 : fstatSync(logFd).size;
  let line: ReturnType<typeof launchLine>;
  try {
    line = launchLine(request, command);
  } catch (err) {
    if (logFd !== undefined) {
      writeSync(logFd, `[zot] error: cannot start: ${(err as Error).message}\n`);
      closeSync(logFd);
    }
    throw err;
  }
  // Inside bubblewrap a program that cannot run is only its exit 1: say why as a direct spawn would.
  const problem = line.program !== command ? notRunnable(command) : undefined;
  if (problem) return processThatCouldNotStart(line, { logPath: logFd === undefined ? undefined : request.logPath, fd: logFd }, problem);
  const marker = newRunMarker();
  let child: ChildProcessByStdio<Writable, Readable, Readable | null>;
  try {
    child = spawn(line.program, line.args, {
      cwd: request.cwd ?? request.dir,
      env: { ...line.env, ...(request.pythonCacheDir ? { PYTHONPYCACHEPREFIX: request.pythonCacheDir } : {}), ...request.env, [RUN_MARKER_VAR]: marker },
      detached: true, // its own process group: signals reach everything it forks
      stdio: ["pipe", "pipe", request.stderr === "pipe" ? "pipe" : logFd ?? "ignore"],
      windowsHide: true,
    }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
  } catch (err) {
    if (logFd !== undefined) closeSync(logFd);
    throw err;
  }
  const pid = child.pid;
  if (pid !== undefined) {
    trackGroup(pid);
    trackMarker(marker);
  }
  const log = (message: string) => writeLogLine(logFd, message);
  for (const note of line.notes) log(note);
  let remembered: ProcessIdentity[] = [];
  /** The tree stopEscapees last stopped, for treeGone. */
  let stopped: ProcessIdentity[] = [];

  let status: ExitStatus | undefined;
  let settle!: (s: ExitStatus) => void;
  const exited = new Promise<ExitStatus>((r) => (settle = r));
  const finish = (s: ExitStatus) => {
    if (status) return;
    status = s;
    if (pid !== undefined) untrackGroup(pid);
    settle(s);
  };
  child.on("error", (err) => {
    // Only a failed spawn ends the process here; a failed kill also emits "error".
    if (child.pid === undefined) finish({ code: null, signal: null, error: explainSpawnError(command, err) });
  });
  // 127 is `env`'s "command not found": a #! line naming a program that is not there.
  const exitStatus = (code: number | null, signal: NodeJS.Signals | null): ExitStatus => {
    // bubblewrap's init exits 128+N when the extension was killed by signal N.
    const killedBy = line.isolation.pid_namespace && code !== null ? signalOfStatus(code) : undefined;
    if (killedBy) return { code: null, signal: killedBy };
    const why = code === 127 ? interpreterProblem(command) : undefined;
    if (why) return { code, signal, error: why };
    const said = logFd === undefined ? undefined : lastStderrLine(request.logPath, runStart);
    return { code, signal, ...(said ? { lastStderrLine: said } : {}) };
  };
  child.on("exit", (code, signal) => {
    let ended = false;
    const done = () => finish(exitStatus(code, signal));
    child.stdout.once("end", () => {
      ended = true;
      done();
    });
    child.stdout.once("close", done);
    setTimeout(() => {
      if (ended || status) return;
      log("exited, but its stdout is still open: a process it started inherited it and holds it; zot stops reading it");
      finish({ ...exitStatus(code, signal), stdoutHeldOpen: true });
    }, STDOUT_LINGER_MS).unref();
  });
  child.on("close", (code, signal) => finish(exitStatus(code, signal)));
  // stdout usually ends as the process exits; the exit event may trail the end of file a little.
  const stdoutClosedEarly = new Promise<boolean>((resolveEarly) => {
    let seen = false;
    const onEof = () => {
      if (seen) return;
      seen = true;
      if (status) return resolveEarly(false);
      const timer = setTimeout(() => resolveEarly(!status && pid !== undefined && processAlive(pid)), STDOUT_LINGER_MS);
      timer.unref();
      void exited.then(() => {
        clearTimeout(timer);
        resolveEarly(false);
      });
    };
    child.stdout.once("end", onEof);
    child.stdout.once("close", onEof);
    // In a PID namespace bubblewrap keeps a copy of the pipe: watch who inside still holds it.
    if (line.isolation.pid_namespace && pid !== undefined) {
      const watch = setInterval(() => {
        if (status) return clearInterval(watch);
        if (namespaceHoldsPipe(pid) !== false || !namespaceRunning(pid) || status) return;
        clearInterval(watch);
        resolveEarly(true);
      }, NAMESPACE_STDOUT_POLL_MS);
      watch.unref();
      void exited.then(() => clearInterval(watch));
    }
  });

  return {
    pid,
    stdin: child.stdin,
    stdout: child.stdout,
    ...(child.stderr ? { stderr: child.stderr } : {}),
    command,
    logPath: logFd === undefined ? undefined : request.logPath,
    exited,
    stdoutClosedEarly,
    exitStatus: () => status,
    log,
    dataDir: line.dataDir,
    isolation: line.isolation,
    terminate: (graceMs, onSigkill) => (pid === undefined ? Promise.resolve(true)
      : line.isolation.pid_namespace ? terminateNamespace(pid, graceMs, onSigkill) : terminateGroup(pid, graceMs, { onSigkill })),
    rememberDescendants() {
      if (pid !== undefined && process.platform === "linux") remembered = descendantsOf(pid);
    },
    async treeGone(ms = 2_000) {
      const deadline = Date.now() + ms;
      while (snapshotAlive(stopped)) {
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 5));
      }
      return true;
    },
    stopEscapees() {
      stopped = remembered;
      const count = killMarked(marker) + killSnapshot(remembered);
      remembered = [];
      untrackMarker(marker);
      // In a PID namespace what is left is only the kernel finishing what died with it.
      if (count > 0 && !line.isolation.pid_namespace) log(`stopped ${count} process(es) it started that had left its process group (setsid) and outlived it`);
      return count;
    },
    dispose() {
      closeLog(logFd);
      logFd = undefined;
    },
  };
}

/** The signal a shell-style exit status 128+N stands for, if any. */
function signalOfStatus(code: number): NodeJS.Signals | undefined {
  if (code <= 128 || code >= 128 + 65) return undefined;
  return (Object.entries(constants.signals) as Array<[NodeJS.Signals, number]>).find(([, n]) => n === code - 128)?.[0];
}

/** The process of a command that cannot be run at all: it has exited with `error` before it started. */
function processThatCouldNotStart(line: LaunchLine, log: { logPath: string | undefined; fd: number | undefined }, error: string): ExtensionProcess {
  let fd = log.fd;
  const status: ExitStatus = { code: null, signal: null, error };
  // stdout never ends: the exit, not a disconnect, is what the extension reports.
  const { PassThrough } = nodeStream();
  const stdout = new PassThrough();
  return {
    pid: undefined, stdin: new PassThrough(), stdout, command: line.program, logPath: log.logPath,
    exited: Promise.resolve(status), stdoutClosedEarly: Promise.resolve(false), exitStatus: () => status,
    log: (message) => writeLogLine(fd, message), dataDir: line.dataDir, isolation: line.isolation,
    terminate: async () => true, rememberDescendants() {}, treeGone: async () => true, stopEscapees: () => 0,
    dispose() {
      stdout.destroy();
      closeLog(fd);
      fd = undefined;
    },
  };
}

/**
 * "exited with status 3" / "was killed by SIGKILL" / the spawn error, with the extension's last
 * stderr line when it wrote one: that usually says why ("no TypeScript runtime on PATH").
 */
export function describeExit(status: ExitStatus): string {
  if (status.error) return status.error;
  const how = status.signal ? `was terminated by signal ${status.signal}` : `exited with status ${status.code ?? "unknown"}`;
  return status.lastStderrLine ? `${how} (its stderr ends: ${status.lastStderrLine})` : how;
}
