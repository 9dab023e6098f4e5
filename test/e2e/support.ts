// Runs the real zot bundle (dist/zot.mjs, built by vitest's global setup) as a process against
// the scripted model server, in a temp project with its own $ZOT_HOME.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModelServer, type ModelServer, type Turn } from "../support/model-server.ts";
import { checkStreamLine } from "../support/stream-check.ts";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const ZOT = join(ROOT, "dist", "zot.mjs");
export const KIT = join(ROOT, "test", "fixtures", "e2e", "kit");

export interface ZotRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface World {
  server: ModelServer;
  cwd: string;
  home: string;
  env: Record<string, string>;
  /** Runs zot to completion. */
  run(args: string[], options?: { input?: string; env?: Record<string, string> }): Promise<ZotRun>;
  /** Stops the model server and deletes the temp folders. */
  close(): Promise<void>;
  /** Starts zot and leaves it running (rpc mode, interrupt tests). */
  start(args: string[], options?: { env?: Record<string, string> }): ReturnType<typeof spawn>;
}

export async function makeWorld(script: Turn[] = [], wire: "anthropic" | "openai" = "anthropic"): Promise<World> {
  const server = await startModelServer(script);
  const root = mkdtempSync(join(tmpdir(), "zot-e2e-"));
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: root,
    ZOT_HOME: home,
    ZOT_PROVIDER: wire,
    ZOT_MODEL: wire === "openai" ? "gpt-4.1" : "claude-sonnet-4-6",
    ZOT_BASE_URL: wire === "openai" ? `${server.url}/v1` : server.url,
  };
  const start = (args: string[], options: { env?: Record<string, string> } = {}) =>
    spawn(process.execPath, [ZOT, ...args], { cwd, env: { ...env, ...options.env }, stdio: ["pipe", "pipe", "pipe"] });
  return {
    server,
    cwd,
    home,
    env,
    start,
    async close() {
      await server.close();
      // A process just stopped may still be writing its last files there (a killed REPL's
      // extensions get the shutdown grace): retry the removal for as long as that grace.
      rmSync(root, { recursive: true, force: true, maxRetries: 25, retryDelay: 100 });
    },
    run(args, options = {}) {
      const child = start(args, options);
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d) => (stdout += d));
      child.stderr!.on("data", (d) => (stderr += d));
      child.stdin!.end(options.input ?? "");
      return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })));
    },
  };
}

/** The lines of json-mode output, each checked against the published stream schema. */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout.split("\n").filter((l) => l.trim() !== "").map((l) => checkStreamLine(l));
}

/** Text of every user/tool-result block the model received in a request. */
export function requestText(body: any): string {
  return JSON.stringify(body.messages);
}

/**
 * A session file damaged in the middle: line 4, the result of the bash call on line 3, is torn.
 * Loading it skips that line and marks the call interrupted. Returns the path and its bytes.
 */
export function writeDamagedSession(w: World, name = "damaged"): { path: string; content: string } {
  const path = join(w.cwd, "..", `${name}.jsonl`);
  const lines = [
    { type: "session", version: 1, id: name, cwd: w.cwd, created: "2026-01-01T00:00:00.000Z", provider: "anthropic", model: "claude-sonnet-4-6" },
    { type: "message", message: { role: "user", content: [{ type: "text", text: "run echo" }] } },
    { type: "message", message: { role: "assistant", stop: "tool_use",
      content: [{ type: "tool_call", id: "toolu_1", name: "bash", args: { command: "echo hi" } }] } },
  ].map((l) => JSON.stringify(l));
  lines.push('{"type":"message","message":{"role":"tool_result","tool_id":"toolu_1","con');
  lines.push(JSON.stringify({ type: "message", message: { role: "assistant", stop: "end_turn", content: [{ type: "text", text: "it said hi" }] } }));
  const content = `${lines.join("\n")}\n`;
  writeFileSync(path, content);
  return { path, content };
}

/** The two repair notes `writeDamagedSession`'s file must produce, as zot words them. */
export const REPAIR_NOTES = [
  /session damaged was repaired while loading \(the file is left unchanged\): skipped unreadable line 4 in \S+damaged\.jsonl/,
  /session damaged was repaired while loading \(the file is left unchanged\): 1 tool call\(s\) had no result and were marked interrupted/,
];
