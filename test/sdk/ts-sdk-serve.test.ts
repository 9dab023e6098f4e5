// ext.serve(): the TypeScript SDK's extension as a WebSocket server, one zot session per
// connection. The served extension is a real process on Node (the vendored SDK file that
// `zot ext new` writes), Bun and Deno (lib/sdk from source); raw ws clients play zot, and one
// test lets a real ExtensionHost connect through a manifest url.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";

import { vendoredSdkFile } from "../../lib/extensions/authoring/templates/vendored-sdk.ts";
import { createExtension, textResult } from "../../lib/sdk/index.ts";
import type { ToolExecutionContext } from "../../lib/tools/types.ts";
import { sandbox, startHost } from "../extensions/helpers.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { connectWsClient, type WsClient } from "../support/ws-client.ts";

const root = resolve(import.meta.dirname, "..", "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const SERVED = join(root, "test", "fixtures", "extensions", "sdk-served", "main.mjs");
const SOURCE_SDK = join(root, "lib", "sdk", "index.ts");
let scratch = "";
let vendored = "";

beforeAll(() => {
  // The vendored SDK beside its extension, as a scaffold has it; `ws` from an installed node_modules.
  scratch = mkdtempSync(join(tmpdir(), "zot-sdk-serve-"));
  vendored = join(scratch, vendoredSdkFile().path);
  writeFileSync(vendored, vendoredSdkFile().content);
  symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const processes = new Set<ChildProcess>();
const sockets = new Set<WebSocket>();
afterEach(() => {
  for (const s of sockets) s.terminate();
  sockets.clear();
  for (const p of processes) p.kill("SIGKILL");
  processes.clear();
});

interface Served { url: string; stderr(): string; exited: Promise<number | null> }

const runtimes = [
  { runtime: "Node (vendored zot-sdk.mjs)", command: () => [process.execPath, SERVED, vendored] },
  { runtime: "Bun (lib/sdk)", command: () => [bin("bun"), SERVED, SOURCE_SDK] },
  { runtime: "Deno (lib/sdk)", command: () => [bin("deno"), "run", "-A", SERVED, SOURCE_SDK] },
];

async function startServed(command: string[]): Promise<Served> {
  const child = spawn(command[0]!, [...command.slice(1), "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  processes.add(child);
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const ready = await waitForOutput(child, "stdout", /listening (\S+)/);
  return { url: ready.match, stderr: ready.stderr, exited };
}

const connect = (url: string): Promise<WsClient> => connectWsClient(url, sockets);
const text = (frame: Record<string, unknown>) => (frame.content as Array<{ text: string }>)[0]!.text;

async function greet(client: WsClient, cwd: string): Promise<void> {
  expect(await client.next("hello")).toMatchObject({ name: "served", capabilities: expect.arrayContaining(["tools", "call_tool"]) });
  client.send({ type: "hello_ack", protocol_version: 1, zot_version: "test", cwd, capabilities: ["call_tool"] });
  await client.next("ready");
}

describe.each(runtimes)("ext.serve on $runtime", ({ command }) => {
  it("refuses a browser page of another site, an opaque Origin (null) and a foreign Host name (403), and serves a plain client", async () => {
    const served = await startServed(command());
    const attempt = (headers: Record<string, string>) => connectWsClient(served.url, sockets, headers).then(() => "opened", (e: Error) => e.message);
    expect(await attempt({ Origin: "https://evil.example" })).toMatch(/403/);
    expect(await attempt({ Origin: "null" })).toMatch(/403/);
    expect(await attempt({ Host: "evil.example" })).toMatch(/403/);
    expect(await attempt({ Origin: "http://localhost:3000" })).toBe("opened");
    expect(await attempt({})).toBe("opened");
  });

  it("each connection is its own zot session: replies, notes and call_tool reach the zot that asked", async () => {
    const served = await startServed(command());
    expect(served.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ext$/);
    const [a, b] = await Promise.all([connect(served.url), connect(served.url)]);
    await Promise.all([greet(a, "/a"), greet(b, "/b")]);

    // The same request id on both: each session has its own.
    a.send({ type: "tool_call", id: "t1", name: "whoami", args: {} });
    b.send({ type: "tool_call", id: "t1", name: "whoami", args: {} });
    expect(text(await a.next("tool_result"))).toBe("cwd /a");
    expect(text(await b.next("tool_result"))).toBe("cwd /b");

    b.send({ type: "tool_call", id: "t2", name: "announce", args: {} });
    expect(await b.next("notify")).toEqual({ type: "notify", level: "info", message: "note for /b" });
    expect(text(await b.next("tool_result"))).toBe("sent");

    a.send({ type: "command_invoked", id: "c1", name: "relay", args: "notes.txt" });
    const call = await a.next("call_tool");
    expect(call).toMatchObject({ name: "read", args: { path: "notes.txt" } });
    a.send({ type: "tool_result", id: call.id, content: [{ type: "text", text: "hello" }] });
    expect(await a.next("command_response")).toMatchObject({ id: "c1", action: "display", display: "/a read: hello" });

    expect(a.frames.filter((f) => f.type === "notify")).toEqual([]);
    expect(b.frames.filter((f) => f.type === "call_tool")).toEqual([]);
    expect(served.stderr()).toContain("[served] session from /a");
    expect(served.stderr()).toContain("[served] session from /b");
  });

  it("shutdown is acked and closes that connection; the extension goes on serving new ones, and SIGTERM's close() says 1001", async () => {
    const served = await startServed(command());
    const first = await connect(served.url);
    await greet(first, "/first");
    first.send({ type: "shutdown" });
    await first.next("shutdown_ack");
    expect(await first.closed).toBe(1000);

    const second = await connect(served.url);
    await greet(second, "/second");
    second.send({ type: "tool_call", id: "t1", name: "whoami", args: {} });
    expect(text(await second.next("tool_result"))).toBe("cwd /second");
    [...processes].at(-1)!.kill("SIGTERM");
    expect(await second.closed).toBe(1001);
    expect(await served.exited).toBe(0);
  });
});

describe("ext.serve", () => {
  it("with a token, a connection without it or with a wrong one is refused (401)", async () => {
    const ext = createExtension({ name: "tokened", version: "1.0.0" });
    const served = await ext.serve({ token: "serve-secret" });
    try {
      const attempt = (url: string, headers: Record<string, string> = {}) => connectWsClient(url, sockets, headers).then(() => "opened", (e: Error) => e.message);
      expect(await attempt(served.url)).toMatch(/401/);
      expect(await attempt(`${served.url}?token=guess`)).toMatch(/401/);
      expect(await attempt(served.url, { Authorization: "Bearer serve-secret" })).toBe("opened");
    } finally {
      await served.close();
    }
  });

  it("a zot host connects to the served extension's url and calls its tool, which sees the host's cwd", async () => {
    const served = await startServed(runtimes[0]!.command());
    const sb = await sandbox();
    try {
      const dir = join(sb.globalDir, "served");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "served", url: served.url }));
      const t = await startHost(sb);
      expect(t.host.reports()[0]!.errors).toEqual([]);
      const whoami = t.host.tools().find((x) => x.name === "whoami")!;
      const ctx: ToolExecutionContext = { cwd: sb.cwd, signal: new AbortController().signal };
      expect(await whoami.execute({}, ctx)).toMatchObject({ isError: false, content: [{ type: "text", text: `cwd ${sb.cwd}` }] });
      await t.host.shutdown();
    } finally {
      await sb.cleanup();
    }
  });

  it("a binary message is a protocol error: that connection closes with 1003, others go on", async () => {
    const served = await startServed(runtimes[0]!.command());
    const [bad, good] = await Promise.all([connect(served.url), connect(served.url)]);
    await Promise.all([greet(bad, "/bad"), greet(good, "/good")]);
    bad.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await bad.closed).toBe(1003);
    good.send({ type: "tool_call", id: "t1", name: "whoami", args: {} });
    expect(text(await good.next("tool_result"))).toBe("cwd /good");
    expect(served.stderr()).toContain("a binary message is a protocol error");
  });

  it("only the served path upgrades", async () => {
    const served = await startServed(runtimes[0]!.command());
    await expect(connect(served.url.replace(/\/ext$/, "/other"))).rejects.toThrow("Unexpected server response: 400");
  });

  it("serve() and run() exclude each other, a busy port is a clear error, and one-way calls outside a session say why", async () => {
    const quiet = { write: () => true };
    const ext = createExtension({ name: "rules", stderr: quiet });
    ext.tool("t", { description: "d", schema: { type: "object", properties: {} } }, () => textResult("ok"));
    const first = await ext.serve();
    try {
      await expect(ext.serve()).rejects.toThrow("serve() may only be called once, and not after run()");
      await expect(ext.run()).rejects.toThrow("run() may only be called once, and not after serve()");
      expect(() => ext.notify("info", "to whom?")).toThrow("no session: while serving, call this from a handler or onHello");
      await expect(ext.callTool("read", {})).rejects.toMatchObject({ code: "unsupported" });

      const other = createExtension({ name: "other", stderr: quiet });
      await expect(other.serve({ port: first.port })).rejects.toThrow(`serve: cannot listen on ws://127.0.0.1:${first.port}/`);
      const retried = await other.serve(); // nothing listened: serve() may be tried again
      await retried.close();
      await expect(createExtension({ name: "x" }).serve({ port: 70000 })).rejects.toThrow("port must be a whole number");
    } finally {
      await first.close();
    }

    const input = new PassThrough();
    const ran = createExtension({ name: "ran", stdin: input, stdout: new PassThrough(), stderr: quiet });
    const running = ran.run();
    await expect(ran.serve()).rejects.toThrow("serve() may only be called once, and not after run()");
    input.end();
    expect(await running).toBe("eof");
  });
});
