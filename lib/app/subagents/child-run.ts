// One subagent runner invocation: a child zot process in subagent-child mode (the
// `--swarm-child` flag), in its own process group, told its task on stdin and read through its
// NDJSON stdout (which never reaches the parent's stdout). Cancelling closes its stdin (the child aborts and shuts its extensions
// down), then the group is terminated; the outcome is known only once the process is gone.
import { childProcess } from "../../lazy-node.ts";
import { signalGroup, terminateGroup, trackGroup, untrackGroup, waitGroupGone } from "../../process/group.ts";
import { AGENT_MARKER_VAR, killMarked, newRunMarker, trackMarker, untrackMarker } from "../../process/escapees.ts";
import type { RunStatus } from "../../events/index.ts";
import type { Usage } from "../../providers/types.ts";
import { emptyUsage } from "../../providers/usage.ts";
import { encodeSpec, SUBAGENT_CHILD_FLAG, type SubagentChildSpec } from "./child-spec.ts";

export interface SelfCommand {
  command: string;
  /** Arguments before the subagent-child flag (the script, for a runtime running zot's bundle). */
  args: string[];
}


export interface ChildOutcome {
  status: RunStatus;
  error?: string;
  /** The child's last visible assistant text. */
  answer: string;
  steps: number;
  toolCalls: number;
  /** The child's cumulative usage (its own subagents' included). */
  usage: Usage;
}

export interface ChildRunOptions {
  self: SelfCommand;
  spec: SubagentChildSpec;
  env: Record<string, string | undefined>;
  /** Stops the run (status cancelled). */
  signal: AbortSignal;
  /** After this long the run is stopped as timed_out. */
  limitMs: number;
  /** How long a stopped child may take to exit before its group is killed. */
  graceMs?: number;
  /** Each child tool call, as one line. */
  onToolCall?: (line: string) => void;
  /** The child's process id once it runs. */
  onSpawn?: (pid: number) => void;
}

const STDERR_TAIL = 2_000;

export function runChild(options: ChildRunOptions): Promise<ChildOutcome> {
  const { self, spec } = options;
  // The child's tools (bash) run in process groups of their own: a marker in their inherited
  // environment finds them once the child is gone, even after a kill -9 of the child.
  const marker = newRunMarker();
  trackMarker(marker, AGENT_MARKER_VAR);
  const child = childProcess().spawn(self.command, [...self.args, SUBAGENT_CHILD_FLAG], {
    cwd: spec.config.cwd,
    env: { ...options.env, [AGENT_MARKER_VAR]: marker },
    stdio: ["pipe", "pipe", "pipe"],
    detached: process.platform !== "win32",
  });
  const pid = child.pid;
  if (pid !== undefined && process.platform !== "win32") trackGroup(pid);
  if (pid !== undefined) options.onSpawn?.(pid);

  const seen = emptyOutcome();
  let done: { stop: string; error?: string } | undefined;
  let stopReason: "cancelled" | "timed_out" | undefined;
  let stderr = "";
  let spawnError: string | undefined;

  let pending = "";
  const onLine = (line: string) => {
    let event: Record<string, any>;
    try {
      event = JSON.parse(line);
    } catch {
      return; // stdout is NDJSON by contract; a stray line is not worth failing the run for
    }
    switch (event.type) {
      case "turn_start":
        seen.steps++;
        break;
      case "tool_call":
        seen.toolCalls++;
        options.onToolCall?.(`${event.tool_name} ${previewArgs(event.tool_args)}`.trimEnd());
        break;
      case "assistant_message":
        if (typeof event.text === "string" && event.text !== "") seen.answer = event.text;
        break;
      case "usage":
        seen.usage = usageOf(event.cumulative);
        break;
      case "done":
        done = { stop: String(event.stop), ...(typeof event.error === "string" ? { error: event.error } : {}) };
        break;
    }
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    const parts = (pending + chunk.toString("utf8")).split("\n");
    pending = parts.pop() ?? "";
    parts.forEach(onLine);
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL)));
  child.stdin!.on("error", () => undefined); // a child that died early: its exit says why
  child.stdin!.write(encodeSpec(spec));

  const graceMs = options.graceMs ?? 2_000;
  let stopping: Promise<void> | undefined;
  const stop = (reason: "cancelled" | "timed_out") => {
    if (stopping) return;
    stopReason = reason;
    // Closing stdin asks the child to abort and shut down; the group kill is the backstop.
    child.stdin!.end();
    stopping = pid === undefined ? Promise.resolve() : terminateAfter(pid, graceMs).then(() => undefined);
  };
  const onAbort = () => stop("cancelled");
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => stop("timed_out"), options.limitMs);

  return new Promise((resolve) => {
    child.on("error", (err) => (spawnError = err.message));
    child.on("close", async (code, signal) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (pending) onLine(pending);
      // Whatever the child forked must not outlive it.
      if (pid !== undefined && process.platform !== "win32") {
        await (stopping ?? terminateGroup(pid, 0));
        untrackGroup(pid);
      }
      killMarked(marker, AGENT_MARKER_VAR);
      untrackMarker(marker);
      resolve(classify(seen, { done, stopReason, code, signal, stderr, spawnError, limitMs: options.limitMs }));
    });
  });
}

export function emptyOutcome(): ChildOutcome {
  return { status: "completed", answer: "", steps: 0, toolCalls: 0, usage: emptyUsage() };
}

function usageOf(cumulative: Record<string, unknown> | undefined): Usage {
  const n = (key: keyof Usage) => (typeof cumulative?.[key] === "number" ? cumulative[key] as number : 0);
  return { input: n("input"), output: n("output"), cache_read: n("cache_read"), cache_write: n("cache_write"), cost_usd: n("cost_usd") };
}

/** Waits up to `graceMs` for the child to leave on its own, then terminates its group. */
async function terminateAfter(pgid: number, graceMs: number): Promise<void> {
  if (await waitGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, "SIGTERM");
  await terminateGroup(pgid, 500);
}

interface Ending {
  done?: { stop: string; error?: string };
  stopReason?: "cancelled" | "timed_out";
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  spawnError?: string;
  limitMs: number;
}

function classify(seen: ChildOutcome, end: Ending): ChildOutcome {
  if (end.stopReason === "timed_out") return { ...seen, status: "timed_out", error: `the agent ran longer than its limit of ${formatMs(end.limitMs)}` };
  if (end.stopReason === "cancelled") return { ...seen, status: "cancelled", error: "the agent was cancelled" };
  if (end.spawnError) return { ...seen, status: "failed", error: `could not start the agent: ${end.spawnError}` };
  if (end.done && end.code === 0) return { ...seen, status: "completed" };
  if (end.done && end.done.stop !== "end_turn" && end.done.stop !== "max_tokens" && end.done.stop !== "tool_use") {
    return { ...seen, status: "failed", error: end.done.error ?? `the agent's run ended with ${end.done.stop}` };
  }
  const how = end.signal ? `was killed by ${end.signal}` : `exited with status ${end.code}`;
  const detail = lastLine(end.stderr);
  return { ...seen, status: "failed", error: `the agent process ${how}${detail ? `: ${detail}` : ""}` };
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.trim() ?? "";
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1_000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** A short view of a child call's arguments for its progress line. */
function previewArgs(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const values = Object.values(args as Record<string, unknown>);
  const first = values.find((v) => typeof v === "string") as string | undefined;
  const text = first ?? JSON.stringify(args);
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
