// Drives the real `zot mcp serve` (the dist/zot.mjs bundle vitest's global setup builds) with the
// MCP SDK's own client over stdio, in a temp project with its own $ZOT_HOME and no API key.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { ROOT, ZOT } from "../../e2e/support.ts";
import { hostPid } from "../../support/host-pid.ts";

export const PROBE = join(ROOT, "test", "fixtures", "mcp-serve", "probe");

export interface ServeWorld {
  root: string;
  cwd: string;
  /** Where the probe extension leaves a file named by its pid. */
  pidDir: string;
  env: Record<string, string>;
  close(): void;
}

export function makeServeWorld(): ServeWorld {
  const root = mkdtempSync(join(tmpdir(), "zot-mcp-serve-"));
  const cwd = join(root, "project");
  const pidDir = join(root, "pids");
  for (const dir of [cwd, pidDir, join(root, "home")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(cwd, "notes.txt"), "first line\nsecond line\n");
  return {
    root, cwd, pidDir,
    env: { PATH: process.env.PATH ?? "", HOME: root, ZOT_HOME: join(root, "home"), PROBE_PID_DIR: pidDir },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface Served {
  client: Client;
  transport: StdioClientTransport;
  /** What zot wrote to stderr so far. */
  stderr(): string;
  /** Errors the client saw on the connection (a non-MCP line on stdout would be one). */
  errors: Error[];
  close(): Promise<void>;
}

/** The command line of `zot mcp serve` with discovery off (tests load extensions with -e). */
export function serveCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [ZOT, "mcp", "serve", "--no-ext", ...args] };
}

export async function connectServe(world: ServeWorld, args: string[], options: { capabilities?: ClientCapabilities } = {}): Promise<Served> {
  const transport = new StdioClientTransport({ ...serveCommand(args), cwd: world.cwd, env: world.env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "zot-test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, errors, close: () => client.close() };
}

/** Pids the probe left whose process is still alive. */
export function liveProbePids(world: ServeWorld): number[] {
  if (!existsSync(world.pidDir)) return [];
  return readdirSync(world.pidDir).map(hostPid).filter(isAlive);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface ZotExit { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs `zot mcp serve` to its end with stdin as given (for usage errors). */
export function runServe(world: ServeWorld, args: string[], input = ""): Promise<ZotExit> {
  return runZot(world, serveCommand(args).args.slice(1), input);
}

/** Runs the zot bundle with these arguments to its end. */
export function runZot(world: ServeWorld, args: string[], input = ""): Promise<ZotExit> {
  const child = spawn(process.execPath, [ZOT, ...args], { cwd: world.cwd, env: world.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })));
}

/** Polls `check` until it returns a value (bounded: a test never waits forever). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The text blocks of a tools/call result, joined by newlines. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((b) => b.text ?? "").join("\n");
}
