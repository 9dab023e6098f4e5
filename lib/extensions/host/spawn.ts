// Starting one extension subprocess: in its own folder and its own process group, with piped
// stdin/stdout and stderr appended straight to `$ZOT_HOME/logs/ext-<name>.log` (the child writes
// to the file itself, so a chatty stderr can never block on the host). The host appends its own
// diagnostics to the same log, prefixed `[zot]`.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Readable, Writable } from "node:stream";
import { ZOT_VERSION } from "../../version.ts";
import { processAlive, trackGroup, untrackGroup } from "../../process/group.ts";
import { descendantsOf, killMarked, killSnapshot, newRunMarker, type ProcessIdentity, RUN_MARKER_VAR, trackMarker, untrackMarker } from "../../process/escapees.ts";
import { withoutCredentials } from "../permissions/manifest-permissions.ts";
import { sandboxCommand, type SandboxOptions, type SandboxProgram, type SandboxRequest } from "../sandbox/launch.ts";
import { explainSpawnError, interpreterProblem, resolveExec } from "./exec-resolve.ts";
import { bundledBun, extensionEnv, pythonSdkDir } from "./sdk-env.ts";

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It could not run: the spawn failed (ENOENT, EACCES, …) or its #! interpreter is missing. */
  error?: string;
  /** It exited while a process it started still held its stdout open (zot stopped reading). */
  stdoutHeldOpen?: boolean;
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
  /**
   * Run it in an OS sandbox built from this grant (its manifest declares fs or network) with
   * `program` (findSandboxProgram: it may say there is none), or `disabled` to run such an
   * extension unsandboxed (--no-sandbox). Absent: no sandbox.
   */
  sandbox?: (Pick<SandboxRequest, "grant" | "dataDir" | "project" | "home" | "privateDirs">
    & { disabled?: false; program: SandboxProgram; options?: SandboxOptions })
    | { disabled: true };
}

/** A running (or failed-to-start) extension subprocess. */
export interface ExtensionProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
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
  /** How it is sandboxed ("bubblewrap", "sandbox-exec"), or undefined when it is not. */
  readonly sandboxed: string | undefined;
  /** Remembers its process tree now (before it is asked to stop), for stopEscapees. */
  rememberDescendants(): void;
  /**
   * Stops processes it started that left its process group (setsid) and outlived it: those
   * that carry its run marker, their descendants, and the remembered tree. Linux only
   * (elsewhere 0). Returns how many were stopped.
   */
  stopEscapees(): number;
}

export { resolveExec } from "./exec-resolve.ts";

function openLog(path: string, header: string): number | undefined {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, "a");
    writeSync(fd, header);
    return fd;
  } catch {
    return undefined;
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

/** The program and arguments to spawn: the extension's own, or the sandbox wrapping them. */
function launchLine(request: SpawnRequest, command: string): { program: string; args: string[]; dataDir: string; sandboxed?: string; grantedEnv?: string[]; notes: string[] } {
  const sandbox = request.sandbox;
  if (!sandbox) return { program: command, args: request.args, dataDir: request.dir, notes: [] };
  if (sandbox.disabled) {
    return { program: command, args: request.args, dataDir: request.dir,
      notes: ["warning: its manifest declares fs or network permissions, but --no-sandbox runs it unsandboxed, with full access to files and network"] };
  }
  const sdk = pythonSdkDir();
  const bun = bundledBun();
  // Throws SandboxUnavailableError, which the caller reports as "cannot start".
  const wrapped = sandboxCommand({ name: request.name, dir: request.dir, command, args: request.args, grant: sandbox.grant,
    dataDir: sandbox.dataDir, project: sandbox.project, home: sandbox.home, privateDirs: sandbox.privateDirs, sdkDirs: sdk ? [sdk] : [], ...(bun ? { bun } : {}) },
  sandbox.program, sandbox.options);
  return { program: wrapped.command, args: wrapped.args, dataDir: sandbox.dataDir, sandboxed: wrapped.mechanism, grantedEnv: sandbox.grant.env ?? [],
    notes: [`sandboxed with ${wrapped.mechanism}: read-only ${wrapped.plan.readOnly.join(", ")}; read-write ${wrapped.plan.readWrite.join(", ")}; `
      + `network ${wrapped.plan.network ? "allowed" : "none"}`, ...wrapped.plan.warnings.map((w) => `warning: ${w}`)] };
}

export function spawnExtension(request: SpawnRequest): ExtensionProcess {
  const command = resolveExec(request.dir, request.exec);
  const header = `\n[zot] ${new Date().toISOString()} zot ${ZOT_VERSION} starting ${request.name}: ` +
    `${[command, ...request.args].join(" ")} (in ${request.cwd ?? request.dir})\n`;
  let logFd = openLog(request.logPath, header);
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
  const marker = newRunMarker();
  let child: ChildProcessByStdio<Writable, Readable, null>;
  try {
    child = spawn(line.program, line.args, {
      cwd: request.cwd ?? request.dir,
      env: { ...(line.sandboxed ? withoutCredentials(extensionEnv(), line.grantedEnv) : extensionEnv()), ...request.env, [RUN_MARKER_VAR]: marker },
      detached: true, // its own process group: signals reach everything it forks
      stdio: ["pipe", "pipe", logFd ?? "ignore"],
      windowsHide: true,
    }) as ChildProcessByStdio<Writable, Readable, null>;
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
    const why = code === 127 ? interpreterProblem(command) : undefined;
    return { code, signal, ...(why ? { error: why } : {}) };
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
  });

  return {
    pid,
    stdin: child.stdin,
    stdout: child.stdout,
    command,
    logPath: logFd === undefined ? undefined : request.logPath,
    exited,
    stdoutClosedEarly,
    exitStatus: () => status,
    log,
    dataDir: line.dataDir,
    sandboxed: line.sandboxed,
    rememberDescendants() {
      if (pid !== undefined && process.platform === "linux") remembered = descendantsOf(pid);
    },
    stopEscapees() {
      const stopped = killMarked(marker) + killSnapshot(remembered);
      remembered = [];
      untrackMarker(marker);
      if (stopped > 0) log(`stopped ${stopped} process(es) it started that had left its process group (setsid) and outlived it`);
      return stopped;
    },
    dispose() {
      closeLog(logFd);
      logFd = undefined;
    },
  };
}

/** "exited with status 3" / "was killed by SIGKILL" / the spawn error. */
export function describeExit(status: ExitStatus): string {
  if (status.error) return status.error;
  if (status.signal) return `was terminated by signal ${status.signal}`;
  return `exited with status ${status.code ?? "unknown"}`;
}
