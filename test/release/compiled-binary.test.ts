// The single binary as build.ts compiles it (release/compile-flags.ts), run for real: what it
// reads from the directory it starts in, and the bytecode-order recording (release/bytecode-order.ts).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordBytecodeOrder } from "../../release/bytecode-order.ts";
import { COMPILE_FLAGS } from "../../release/compile-flags.ts";
import { makeWorld, ROOT } from "../e2e/support.ts";
import { agentText, startEditor, toolUpdates } from "../e2e/acp/support.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { startWsFixture } from "../support/ws-fixture.ts";

const work = mkdtempSync(join(tmpdir(), "zot-compiled-test-"));
const binary = join(work, "zot");
let server: ModelServer;

beforeAll(async () => {
  const built = spawnSync(join(ROOT, "node_modules", ".bin", "bun"), ["build", "bin/zot.ts", ...COMPILE_FLAGS, `--outfile=${binary}`],
    { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`could not compile zot:\n${built.stderr}`);
  server = await startModelServer();
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** A project folder and its own ZOT_HOME; the binary runs there with only these variables. */
function project(name: string, files: Record<string, string>): { dir: string; env: Record<string, string> } {
  const dir = join(work, name);
  mkdirSync(join(dir, "home"), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return { dir, env: { PATH: process.env.PATH ?? "", HOME: join(dir, "home"), ZOT_HOME: join(dir, "home") } };
}

function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout }));
  });
}

describe("the compiled binary with a WebSocket extension", () => {
  it("the scripted model's call of a tool registered over the socket returns its answer in json mode", async () => {
    const ext = await startWsFixture();
    try {
      const { port } = ext;
      server.push({ tool_calls: [{ id: "ws1", name: "echo", args: { text: "from the binary" } }], stop: "tool_use" });
      server.push({ text: "echoed" });
      const { dir, env } = project("websocket-extension", {});
      mkdirSync(join(dir, "home", "extensions", "remote"), { recursive: true });
      writeFileSync(join(dir, "home", "extensions", "remote", "extension.json"), JSON.stringify({ name: "remote", url: `ws://127.0.0.1:${port}/` }));
      const result = await run(["--mode", "json", "--no-session", "hi"], dir, { ...env, ZOT_PROVIDER: "anthropic", ZOT_BASE_URL: server.url });
      expect(result.code).toBe(0);
      const results = result.stdout.trim().split("\n").filter((l) => l.includes('"tool_result"'));
      expect(results.join("\n"), result.stdout.slice(-2000)).toContain("session 1: from the binary");
    } finally {
      ext.process.kill("SIGKILL");
    }
  }, 30_000);
});

describe("the compiled binary and the directory it starts in", () => {
  it("runs no bunfig.toml preload: a cloned repository's code never runs inside zot", async () => {
    const marker = join(work, "preloaded");
    const { dir, env } = project("bunfig", {
      "bunfig.toml": 'preload = ["./preload.ts"]\n',
      "preload.ts": `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
    });
    const result = await run(["--version"], dir, env);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(existsSync(marker)).toBe(false);
  });

  it("loads no .env: a project's file cannot move the model endpoint (and the key sent there)", async () => {
    const before = server.requests.length;
    const { dir, env } = project("dotenv", { ".env": `ZOT_BASE_URL=${server.url}\nZOT_PROVIDER=anthropic\n` });
    const result = await run(["--mode", "json", "--no-session", "hi"], dir, { ...env, ZOT_PROVIDER: "anthropic" });
    const done = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    // Read, ZOT_BASE_URL would make the loopback server the endpoint and need no key.
    expect(done).toMatchObject({ type: "done", stop: "error", error: expect.stringMatching(/no API key for anthropic/) });
    expect(server.requests.length).toBe(before);
  });

  it("stops a json run whose reader goes away, with one line on stderr and exit 1 (Bun's stdout)", async () => {
    server.push({ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunk_delay_ms: 25 });
    const { dir, env } = project("reader-leaves", {});
    const child = spawn(binary, ["--mode", "json", "--no-session", "hi"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, ZOT_PROVIDER: "anthropic", ZOT_BASE_URL: server.url } });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    let seen = "";
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk;
      if (seen.includes('"text_delta"')) child.stdout.destroy();
    });
    const code = await new Promise((done) => child.on("close", done));
    expect({ code, stderr }).toEqual({ code: 1, stderr: "zot: stdout was closed (its reader went away); the run was stopped\n" });
  });
});

describe("the compiled binary and a slow extension", () => {
  it("disconnects an interceptor that never reads its stdin within the run, at the write bound, with the spec's diagnostic", async () => {
    const calls = Array.from({ length: 6 }, (_, i) => ({ id: `big${i}`, name: "bash", args: { command: "head -c 100000 /dev/zero | tr '\\\\0' x" } }));
    server.push({ tool_calls: calls, stop: "tool_use" });
    server.push({ text: ["still ", "running ", "after ", "the ", "bound"], chunk_delay_ms: 300 });
    const { dir, env } = project("deaf-interceptor", {});
    const ext = join(dir, "home", "extensions", "deaf");
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, "ext.mjs"), readFileSync(join(ROOT, "test", "fixtures", "extensions", "node-programmable", "ext.mjs")));
    writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "deaf", exec: process.execPath, args: ["./ext.mjs", JSON.stringify({
      name: "deaf", noRead: true, legacy: true, register: [{ type: "subscribe", events: ["tool_result"], intercept: ["tool_call"] }] })] }));
    const result = await run(["--mode", "json", "--no-session", "hi"], dir, { ...env, ZOT_PROVIDER: "anthropic", ZOT_BASE_URL: server.url,
      ZOT_EXTENSION_TIMEOUTS: "write=500,intercept=200" });
    const lines = result.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; message?: string });
    const error = lines.findIndex((l) => l.type === "ext_error" && /a write to the extension's stdin was blocked for 500 ms/.test(l.message ?? ""));
    expect(error, result.stdout.slice(-2000)).toBeGreaterThan(-1);
    expect(error).toBeLessThan(lines.findIndex((l) => l.type === "done"));
    expect(result.code).toBe(0);
  }, 30_000);
});

/** The function entries of an order file (`F <hash>` lines after the `v2` header). */
function functionsIn(file: string): string[] {
  const [header, ...lines] = readFileSync(file, "utf8").trim().split("\n");
  expect(header).toBe("v2");
  return lines.filter((l) => l.startsWith("F "));
}

describe("bytecode order recording", () => {
  it("records one order per start, json first, and a one-shot run uses more functions than --version", async () => {
    const dir = mkdtempSync(join(work, "record-"));
    const files = await recordBytecodeOrder(binary, dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(["json.order", "print.order", "version.order"]);
    const [json, print, version] = files.map(functionsIn);
    expect(version!.length).toBeGreaterThan(0);
    // The one-shot runs reached the model: they ran the provider and the agent loop as well.
    expect(json!.length).toBeGreaterThan(version!.length);
    expect(print!.length).toBeGreaterThan(version!.length);
  }, 60_000);

  it("a start that fails is an error naming it, so the build can go on without an order", async () => {
    const failing = join(work, "failing");
    writeFileSync(failing, "#!/bin/sh\necho 'no model here' >&2\nexit 3\n");
    chmodSync(failing, 0o755);
    await expect(recordBytecodeOrder(failing, mkdtempSync(join(work, "fail-")))).rejects.toThrow(
      /zot --mode json --no-session review this ended with 3: no model here/);
  });
});

describe("the compiled binary serves an editor over ACP", () => {
  it("initialize, a new session and a prompt with a tool call streamed to end_turn", async () => {
    const world = await makeWorld([{ tool_calls: [{ id: "b1", name: "bash", args: { command: "echo from-acp-binary" } }] }, { text: "binary answer" }]);
    const editor = startEditor(world, { command: [binary] });
    try {
      expect((await editor.initialize()).agentInfo).toMatchObject({ name: "zot" });
      const { sessionId } = await editor.agent.request("session/new", { cwd: world.cwd, mcpServers: [] });
      expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason).toBe("end_turn");
      expect(agentText(editor, sessionId)).toBe("binary answer");
      expect(JSON.stringify(toolUpdates(editor, sessionId, "b1").at(-1))).toContain("from-acp-binary");
      expect(await editor.close()).toBe(0);
    } finally {
      if (editor.child.exitCode === null) editor.child.kill("SIGKILL");
      await world.close();
    }
  }, 30_000);
});
