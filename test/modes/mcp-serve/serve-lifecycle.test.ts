// `zot mcp serve` as a process: --no-yolo confirmations through the client, usage errors, and the
// end of input ending zot cleanly with only MCP messages on stdout.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectServe, eventually, isAlive, liveProbePids, makeServeWorld, PROBE, runServe, runZot, serveCommand, textOf, type Served, type ServeWorld } from "./support.ts";

let world: ServeWorld;
const open: Served[] = [];
beforeAll(() => {
  world = makeServeWorld();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
afterAll(() => world.close());


describe("--no-yolo", () => {
  it("asks the client's user through elicitation and runs the call when they accept", async () => {
    const served = await connectServe(world, ["--no-yolo", "--tools", "bash"], { capabilities: { elicitation: {} } });
    open.push(served);
    const asked: string[] = [];
    served.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { answer: "yes" } };
    });
    const result = await served.client.callTool({ name: "bash", arguments: { command: "echo approved" } });
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "approved" }] });
    expect(asked).toEqual([expect.stringContaining("zot wants to run bash")]);
  });

  it("a declined confirmation leaves the call unrun, as an error result", async () => {
    const served = await connectServe(world, ["--no-yolo", "--tools", "bash"], { capabilities: { elicitation: {} } });
    open.push(served);
    served.client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }));
    const result = await served.client.callTool({ name: "bash", arguments: { command: "echo never" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("bash was not run: the user declined this tool call.");
  });

  it("a client that cannot elicit gets every call refused, never run unconfirmed", async () => {
    const served = await connectServe(world, ["--no-yolo", "--tools", "bash"]);
    open.push(served);
    const result = await served.client.callTool({ name: "bash", arguments: { command: "echo never" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^bash was not run: .*the MCP client offers no elicitation/);
  });
});

describe("the process", () => {
  it("ends with exit code 0 when stdin closes, stopping its extensions, with only MCP messages on stdout", async () => {
    const { command, args } = serveCommand(["-e", PROBE]);
    const child = spawn(command, args, { cwd: world.cwd, env: world.env, stdio: ["pipe", "pipe", "pipe"] });
    const lines: string[] = [];
    const answered = new Promise<void>((resolve) => createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (JSON.parse(line).id === 2) resolve();
    }));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("close", (code, signal) => resolve([code, signal])));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/call", params: { name: "shout", arguments: { text: "bye" } } });
    await answered;
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ serverInfo: expect.objectContaining({ name: "zot" }) }) }),
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "BYE" }], isError: false } },
    ]);
    expect(liveProbePids(world)).toEqual([]);
  });

  it("a client that stops reading ends zot as closing stdin does: exit 0, extensions stopped, no crash", async () => {
    const { command, args } = serveCommand(["-e", PROBE]);
    const child = spawn(command, args, { cwd: world.cwd, env: world.env, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const initialized = new Promise<void>((resolve) => createInterface({ input: child.stdout }).once("line", () => resolve()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("close", (code, signal) => resolve([code, signal])));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    await initialized;
    await eventually(async () => (liveProbePids(world).length > 0 ? true : undefined));
    // stdin stays open: only the reply to this call, written into the closed pipe, tells zot.
    child.stdout.destroy();
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/call", params: { name: "shout", arguments: { text: "into the void" } } });
    expect(await exited).toEqual([0, null]);
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(liveProbePids(world)).toEqual([]);
  });

  it("SIGTERM stops zot and the extensions it started", async () => {
    const served = await connectServe(world, ["-e", PROBE]);
    open.push(served);
    const zotPid = served.transport.pid!;
    await eventually(async () => (liveProbePids(world).length > 0 ? true : undefined));
    process.kill(zotPid, "SIGTERM");
    await eventually(async () => (!isAlive(zotPid) && liveProbePids(world).length === 0 ? true : undefined));
  });

  it("an extension that fails to start is reported on stderr, and the other tools are still served", async () => {
    const broken = join(world.root, "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", version: "1.0.0", exec: "./missing.sh" }));
    const served = await connectServe(world, ["-e", broken, "--tools", "read"]);
    open.push(served);
    expect((await served.client.listTools()).tools.map((t) => t.name)).toEqual(["read"]);
    // stderr is its own pipe: what zot wrote there before answering may still be on its way.
    await eventually(async () => (/\[broken\] error: .*missing\.sh/.test(served.stderr()) ? true : undefined));
  });

  it("a --tools name no tool has is a usage error naming what is offered, with nothing left running", async () => {
    const run = await runServe(world, ["-e", PROBE, "--tools", "read,nope"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("zot: unknown tool nope in --tools (built-in tools: read, write, edit, bash, glob, grep, skill, agent; extension tools: shout, wait, unlock, seen)\n");
    expect(liveProbePids(world)).toEqual([]);
  });

  it("an unknown flag is a usage error before anything starts; --help prints the options", async () => {
    const bad = await runServe(world, ["--bogus"]);
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toContain("unknown option --bogus (see zot mcp serve --help)");
    const noDir = await runServe(world, ["--cwd", join(world.root, "nowhere")]);
    expect([noDir.code, noDir.stdout]).toEqual([2, ""]);
    expect(noDir.stderr).toMatch(/^zot: --cwd \S+nowhere is not a directory\n$/);
    const unknown = await runZot(world, ["mcp", "nope"]);
    expect([unknown.code, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toContain('zot: unknown command "mcp nope"');
    const help = await runServe(world, ["--help"]);
    expect([help.code, help.stderr]).toEqual([0, ""]);
    expect(help.stdout).toContain("USAGE zot mcp serve [OPTIONS]");
    for (const flag of ["--cwd", "--tools", "--no-builtins", "--no-extension-tools", "-e, --ext", "--no-ext", "--jail", "--no-yolo"]) expect(help.stdout).toContain(flag);
    expect(help.stdout).not.toContain("\u001b[");
  });
});
