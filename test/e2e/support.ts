// Runs the real zot bundle (dist/zot.mjs, built by vitest's global setup) as a process against
// the scripted model server, in a temp project with its own $ZOT_HOME.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
      rmSync(root, { recursive: true, force: true });
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
