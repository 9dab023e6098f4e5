// The `bash` tool: runs a command with bash (sh when bash is missing) in the working directory,
// in its own process group so that a timeout, a cancel — or simply the command finishing —
// takes down everything it started, background jobs and grandchildren included. stdout and
// stderr are merged in arrival order; the model sees the tail when output is long.
// Under jail, bash still runs in the working directory, but the command itself is not
// confined: jail covers the file tools and bash's working directory only.
import type { ChildProcess } from "node:child_process";
import { childProcess } from "../lazy-node.ts";
import { delimiter } from "node:path";
import { optionalPositiveNumber, requireString } from "./args.ts";
import { guardExecute, ToolFailure } from "./failure.ts";
import type { JailSetting } from "./jail.ts";
import { LineSplitter } from "./line-splitter.ts";
import { OutputTail, truncationNote } from "./output-tail.ts";
import { terminateGroup } from "../process/group.ts";
import { findShell } from "./shell.ts";
import type { CommandTerminal, TerminalResult } from "./command-terminal.ts";
import type { Tool, ToolExecutionContext, ToolOutcome } from "./types.ts";

export interface BashToolOptions {
  cwd: string;
  /** Accepted for symmetry; bash always runs in `cwd` and jail does not confine the command. */
  jail?: JailSetting;
  /** Default timeout when the call gives none (default 120 s). */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when stopping the process group (default 1 s). */
  killGraceMs?: number;
  /** Tail kept for the model (defaults 2000 lines, 50 KiB). */
  maxLines?: number;
  maxBytes?: number;
  /** Shell to use (default: bash from PATH, else sh). */
  shell?: string;
  env?: NodeJS.ProcessEnv;
  /** Folders put before PATH for each command (a plugin's bin/), read at each call. */
  pathDirs?: () => readonly string[];
  /** Run commands there instead of in zot's own shell (an editor's terminal). */
  terminal?: CommandTerminal;
}

export const BASH_DEFAULTS = { timeoutMs: 120_000, killGraceMs: 1_000, maxLines: 2000, maxBytes: 50 * 1024 };

/** How long to wait for the output pipes to close once the group is gone (a daemon that left the group may hold them). */
const PIPE_CLOSE_WAIT_MS = 500;

export function createBashTool(options: BashToolOptions): Tool {
  const defaultTimeoutMs = options.timeoutMs ?? BASH_DEFAULTS.timeoutMs;
  return {
    name: "bash",
    source: { kind: "builtin" },
    description:
      "Run a shell command with bash in the working directory. stdout and stderr are returned " +
      `together; long output keeps its last ${options.maxLines ?? BASH_DEFAULTS.maxLines} lines. A non-zero exit ` +
      `code is reported as an error. The command is killed after timeout seconds (default ${defaultTimeoutMs / 1000}), ` +
      "and nothing it started keeps running after it finishes, so do not rely on background processes.",
    schema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command line to run (bash syntax)." },
        timeout: { type: "number", exclusiveMinimum: 0, description: `Seconds before the command is killed (default ${defaultTimeoutMs / 1000}).` },
      },
      required: ["command"],
    },
    preview(args) {
      const command = String(args.command ?? "");
      const first = command.split("\n")[0]!;
      const short = first.length > 100 ? `${first.slice(0, 99)}…` : first;
      return first === command ? short : `${short} …`;
    },
    execute: guardExecute("bash", async (args, ctx) => {
      const command = requireString("bash", args, "command", "the command line to run");
      if (command.trim() === "") throw new ToolFailure("bash: `command` is empty; give the command line to run.");
      const seconds = optionalPositiveNumber("bash", args, "timeout", "seconds before the command is killed");
      return runCommand(command, seconds !== undefined ? seconds * 1000 : defaultTimeoutMs, options, ctx);
    }),
  };
}

type Stop = "timed_out" | "cancelled";

/** `env` with `dirs` before its PATH. */
function withPathDirs(env: NodeJS.ProcessEnv, dirs: readonly string[]): NodeJS.ProcessEnv {
  return dirs.length ? { ...env, PATH: [...dirs, env.PATH ?? ""].join(delimiter) } : env;
}

async function runCommand(command: string, timeoutMs: number, options: BashToolOptions,
  ctx: ToolExecutionContext): Promise<ToolOutcome> {
  const shell = options.shell ?? findShell();
  const tail = new OutputTail(options.maxLines ?? BASH_DEFAULTS.maxLines, options.maxBytes ?? BASH_DEFAULTS.maxBytes);
  if (options.terminal) return runInTerminal(options.terminal, command, timeoutMs, options, ctx, tail);
  const child = childProcess().spawn(shell, ["-c", command], {
    cwd: options.cwd,
    env: withPathDirs(options.env ?? process.env, options.pathDirs?.() ?? []),
    detached: process.platform !== "win32", // own process group, so the group can be killed as one
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.on("error", () => {}); // reported through `started` below; later errors must not crash the host
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  collectOutput(child, tail, ctx.onProgress);

  const startError = await new Promise<Error | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", (err) => resolve(err));
  });
  if (startError || child.pid === undefined) {
    throw new ToolFailure(`bash: could not start ${shell} in ${options.cwd}: ${startError?.message ?? "no process id"}. Check that the working directory exists.`);
  }
  const pid = child.pid;

  let stop: Stop | undefined;
  let wake!: () => void;
  const stopped = new Promise<void>((resolve) => { wake = resolve; });
  const timer = setTimeout(() => { stop ??= "timed_out"; wake(); }, timeoutMs);
  const onAbort = () => { stop ??= "cancelled"; wake(); };
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    await Promise.race([exited, stopped]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }

  // Whatever ended the wait, clear the whole group: leftover background jobs die with it.
  if (process.platform === "win32") child.kill();
  await terminateGroup(pid, options.killGraceMs ?? BASH_DEFAULTS.killGraceMs);
  if (!(await settlesWithin(closed, PIPE_CLOSE_WAIT_MS))) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  const { code, signal } = (await settlesWithin(exited, PIPE_CLOSE_WAIT_MS)) ?? { code: null, signal: null };
  return describeOutcome(tail, stop, code, signal, timeoutMs);
}

/** The command in someone else's terminal, its output through zot's tail as from its own shell. */
async function runInTerminal(terminal: CommandTerminal, command: string, timeoutMs: number, options: BashToolOptions,
  ctx: ToolExecutionContext, tail: OutputTail): Promise<ToolOutcome> {
  const dirs = options.pathDirs?.() ?? [];
  const env: Record<string, string> = dirs.length ? { PATH: withPathDirs(options.env ?? process.env, dirs).PATH ?? "" } : {};
  let result: TerminalResult;
  try {
    result = await terminal.run({ command, cwd: options.cwd, env, timeoutMs, signal: ctx.signal,
      outputByteLimit: 4 * (options.maxBytes ?? BASH_DEFAULTS.maxBytes), ...(ctx.toolId ? { toolId: ctx.toolId } : {}) });
  } catch (err) {
    throw new ToolFailure(`bash: the terminal could not run the command: ${(err as Error).message}`);
  }
  tail.push(result.truncated ? `[the start of the output was dropped by the terminal]\n${result.output}` : result.output);
  return describeOutcome(tail, result.stop, result.exitCode, result.signal as NodeJS.Signals | null, timeoutMs);
}

function collectOutput(child: ChildProcess, tail: OutputTail, onProgress?: (text: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const decoder = new TextDecoder("utf-8"); // per stream, so a character split across chunks survives
    const lines = onProgress ? new LineSplitter(onProgress) : undefined;
    stream.on("data", (chunk: Buffer) => {
      const text = decoder.decode(chunk, { stream: true });
      tail.push(text);
      lines?.push(text);
    });
    stream.once("close", () => {
      const rest = decoder.decode();
      tail.push(rest);
      lines?.push(rest);
      lines?.flush();
    });
  }
}

/** The promise's value if it settles within `ms`, else undefined. */
async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ms); });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describeOutcome(
  tail: OutputTail, stop: Stop | undefined, code: number | null, signal: NodeJS.Signals | null, timeoutMs: number,
): ToolOutcome {
  const out = tail.result();
  let text = out.text === "" ? "(no output)" : out.text;
  if (out.truncated) text = `${truncationNote(out)}\n${text}`;
  const details: Record<string, unknown> = {
    exit_code: code, signal, truncated: out.truncated, total_lines: out.totalLines, total_bytes: out.totalBytes,
  };
  if (stop === "timed_out") {
    const secs = Number((timeoutMs / 1000).toFixed(3));
    text += `\n\n[Timed out after ${secs} s; the command and everything it started were killed. If it needs longer, pass a larger timeout (seconds).]`;
    return { content: [{ type: "text", text }], isError: true, status: "timed_out", details };
  }
  if (stop === "cancelled") {
    text += "\n\n[Cancelled; the command and everything it started were killed.]";
    return { content: [{ type: "text", text }], isError: true, status: "cancelled", details };
  }
  if (code !== 0) {
    text += code === null ? `\n\n[Killed by signal ${signal ?? "unknown"}]` : `\n\n[Exit code ${code}]`;
    return { content: [{ type: "text", text }], isError: true, status: "failed", details };
  }
  return { content: [{ type: "text", text }], details };
}
