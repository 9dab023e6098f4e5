// Subagent tests: one scripted model server answers the parent and its children alike, each
// conversation routed by a marker in its first user message, and a scan for subagent child
// processes still running in a test project.
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { RecordedRequest, StaticTurn, Turn } from "../support/model-server.ts";
import { checkStreamLine } from "../support/stream-check.ts";
import { expect } from "vitest";
import type { World } from "./support.ts";

/** The text of a request's first user message (Anthropic and OpenAI wires). */
export function firstUserText(body: any): string {
  const first = (body?.messages ?? []).find((m: any) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  return (first.content ?? []).map((b: any) => (typeof b.text === "string" ? b.text : "")).join("");
}

/**
 * A turn that plays the next turn of the first route whose marker the conversation's first user
 * message contains. Push it once per request the test expects (`routedTurns` does).
 */
export function routedTurn(routes: Record<string, Turn[]>): Turn {
  return async (request: RecordedRequest): Promise<StaticTurn> => {
    const text = firstUserText(request.body);
    const marker = Object.keys(routes).find((m) => text.includes(m));
    const next = marker === undefined ? undefined : routes[marker]!.shift();
    if (next === undefined) return { type: "error", status: 400, message: `no scripted turn for a conversation starting ${JSON.stringify(text.slice(0, 60))}` };
    return typeof next === "function" ? next(request) : next;
  };
}

export function routedTurns(routes: Record<string, Turn[]>): Turn[] {
  const count = Object.values(routes).reduce((n, turns) => n + turns.length, 0);
  const turn = routedTurn(routes);
  return Array.from({ length: count }, () => turn);
}

/**
 * Pids of live processes whose working directory is `dir` or below it (`childrenOnly`: subagent
 * children, known by their `--swarm-child` flag).
 */
export function processesIn(dir: string, childrenOnly = false): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (childrenOnly && !readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("--swarm-child")) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\) [ZX] /.test(stat)) continue;
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(dir)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** Polls until `check` holds (or throws after `ms`). */
export async function eventually<T>(check: () => T | undefined, ms = 10_000, what = "the condition"): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The test world's folders (project, home with its worktrees). */
export const worldRoot = (cwd: string) => dirname(cwd);

/** A json-mode zot left running: its lines as they come (each checked against the stream schema), and a way to wait for one. */
export function startJson(w: World, args: string[], env: Record<string, string> = {}) {
  const child = w.start(["--mode", "json", ...args], { env });
  child.stdin!.end();
  const lines: Array<Record<string, any>> = [];
  const stderr: string[] = [];
  child.stderr!.on("data", (d) => stderr.push(String(d)));
  createInterface({ input: child.stdout! }).on("line", (line) => lines.push(checkStreamLine(line)));
  return {
    child,
    lines,
    exited: new Promise<number | null>((done) => child.on("close", (code) => done(code))),
    waitFor: (pred: (l: Record<string, any>) => boolean, ms = 15_000) =>
      eventually(() => lines.find(pred), ms, `a line in ${JSON.stringify(lines.map((l) => l.type))}\n${stderr.join("")}`),
  };
}

/** A scripted model turn that calls the agent tool. */
export const agentCall = (id: string, args: Record<string, unknown>) => ({ tool_calls: [{ id, name: "agent", args }] });
/** The tool_result line of call `id`. */
export const resultOf = (lines: Array<Record<string, any>>, id: string) => lines.find((l) => l.type === "tool_result" && l.tool_id === id)!;
/** A tool_result line's text. */
export const textOf = (result: Record<string, any>) => result.result.content.map((b: any) => b.text ?? "").join("");

/**
 * The afterEach of a subagent test file: no process may be left behind (no subagent child, nothing
 * a child started), then the world goes.
 */
export async function closeSubagentWorld(world: World | undefined): Promise<void> {
  if (world) expect(await eventually(() => processesIn(worldRoot(world.cwd)).length === 0 || undefined, 5_000, "no process left")).toBe(true);
  await world?.close();
}
