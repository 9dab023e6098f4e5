// `zot ext serve FOLDER`: a stdio extension behind a WebSocket, one process per connection, each
// started as zot's host starts it (a PID namespace of its own, here: it reports its pid as
// pid@namespace, see host-pid.ts). A raw ws client plays zot's part (hello_ack, tool_call,
// shutdown) with the token; the last test lets a real ExtensionHost connect through a manifest url.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { processAlive } from "../../lib/process/group.ts";
import type { ToolExecutionContext } from "../../lib/tools/types.ts";
import { sandbox as hostSandbox, startHost, waitFor } from "../extensions/helpers.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { hostPid } from "../support/host-pid.ts";
import { connectWsClient, type WsClient as Client } from "../support/ws-client.ts";
import { makeSandbox, type Sandbox, ZOT } from "./support/cli.ts";

/** A raw-protocol Node extension: its `pid` tool answers with its process id (pid@namespace). */
const EXTENSION = `#!/usr/bin/env node
import { createInterface } from "node:readline";
import { readlinkSync } from "node:fs";
const me = () => process.pid + "@" + readlinkSync("/proc/self/ns/pid");
const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
if (process.env.IGNORE_TERM) process.on("SIGTERM", () => console.error("ignoring SIGTERM"));
console.error("started " + me());
send({ type: "hello", name: "pidder", version: "1.0.0", capabilities: ["tools"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") {
    send({ type: "register_tool", name: "pid", description: "its pid", schema: { type: "object", properties: {} } });
    send({ type: "ready" });
  } else if (msg.type === "tool_call") {
    send({ type: "tool_result", id: msg.id, content: [{ type: "text", text: me() }] });
  } else if (msg.type === "shutdown") {
    process.stdout.write(JSON.stringify({ type: "shutdown_ack" }) + "\\n", () => process.exit(0));
  }
});
`;

let sb: Sandbox;
const servers = new Set<ChildProcess>();
const sockets = new Set<WebSocket>();
beforeEach(() => void (sb = makeSandbox()));
afterEach(() => {
  for (const s of sockets) s.terminate();
  sockets.clear();
  for (const s of servers) s.kill("SIGKILL");
  servers.clear();
  sb.cleanup();
});

function writeExtension(manifest: Record<string, unknown> = { exec: "./main.mjs" }): string {
  const dir = join(sb.base, "pidder");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "pidder", ...manifest }));
  writeFileSync(join(dir, "main.mjs"), EXTENSION);
  chmodSync(join(dir, "main.mjs"), 0o755);
  return dir;
}

interface Serve { child: ChildProcess; url: string; stderr: () => string; exited: Promise<number | null> }

const TOKEN = "serve-test-token";

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Serve> {
  const child = spawn(process.execPath, [ZOT, "ext", "serve", ...args], { cwd: sb.project, env: { ...sb.env, ZOT_SERVE_TOKEN: TOKEN, ...env },
    stdio: ["ignore", "pipe", "pipe"] });
  servers.add(child);
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  const ready = await waitForOutput(child, "stderr", /listening on (ws:\/\/\S+)/);
  return { child, url: ready.match, stderr: ready.stderr, exited };
}

const connect = (url: string): Promise<Client> => connectWsClient(`${url}?token=${TOKEN}`, sockets);
/** What the extension wrote on stderr: its log, as zot's host keeps it. */
const extensionLog = () => (existsSync(join(sb.home, "logs", "ext-pidder.log")) ? readFileSync(join(sb.home, "logs", "ext-pidder.log"), "utf8") : "");

/** Runs the handshake and a `pid` tool call; returns the extension's pid. */
async function handshake(client: Client): Promise<number> {
  expect(await client.next("hello")).toMatchObject({ name: "pidder" });
  client.socket.send(JSON.stringify({ type: "hello_ack", protocol_version: 1, zot_version: "test", session_id: "s", cwd: "/" }));
  expect(await client.next("register_tool")).toMatchObject({ name: "pid" });
  await client.next("ready");
  client.socket.send(`${JSON.stringify({ type: "tool_call", id: "t1", name: "pid", args: {} })}\n`); // a trailing newline is tolerated
  const result = await client.next("tool_result");
  expect(result.id).toBe("t1");
  return hostPid((result.content as Array<{ text: string }>)[0]!.text);
}

const gone = (pid: number) => waitFor(() => !processAlive(pid), `process ${pid} to be gone`);

describe("zot ext serve", () => {
  it("speaks the protocol over one text message per frame, and acks shutdown; its stderr goes to its log", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    expect(s.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/$/);
    const client = await connect(s.url);
    const pid = await handshake(client);
    client.socket.send(JSON.stringify({ type: "shutdown" }));
    await client.next("shutdown_ack");
    expect(await client.closed).toBe(1000);
    await gone(pid);
    expect(extensionLog()).toMatch(/started \d+@pid:\[\d+\]/);
    expect(s.stderr()).toContain("[1] zot ext serve: connection accepted");
  });

  it("runs one process per connection, and closing a socket kills only its process", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    const [a, b] = await Promise.all([connect(s.url), connect(s.url)]);
    const [pidA, pidB] = await Promise.all([handshake(a!), handshake(b!)]);
    expect(pidA).not.toBe(pidB);
    expect(processAlive(pidA) && processAlive(pidB)).toBe(true);
    a!.socket.close();
    await gone(pidA);
    expect(processAlive(pidB)).toBe(true);
    b!.socket.send(JSON.stringify({ type: "tool_call", id: "t2", name: "pid", args: {} }));
    const again = await b!.next("tool_result");
    expect(hostPid((again.content as Array<{ text: string }>)[0]!.text)).toBe(pidB);
  });

  it("a binary message is a protocol error: the socket is closed (1003) and the process killed", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    const client = await connect(s.url);
    const pid = await handshake(client);
    client.socket.send(Buffer.from("{}"), { binary: true });
    expect(await client.closed).toBe(1003);
    await gone(pid);
    expect(s.stderr()).toContain("binary message");
  });

  it("a message over the 4 MiB frame limit closes the socket (1009) and kills the process", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    const client = await connect(s.url);
    const pid = await handshake(client);
    client.socket.send(JSON.stringify({ type: "x", pad: "a".repeat(4 * 1024 * 1024) }));
    expect(await client.closed).toBe(1009);
    await gone(pid);
  });

  it("a process that ignores SIGTERM is killed with SIGKILL after the grace", async () => {
    const s = await serve([writeExtension(), "--port", "0", "--kill-grace-ms", "100"], { IGNORE_TERM: "1" });
    const client = await connect(s.url);
    const pid = await handshake(client);
    client.socket.close();
    await gone(pid);
    await waitFor(() => s.stderr().includes("did not stop after SIGTERM: SIGKILL"), "the SIGKILL note");
    expect(extensionLog()).toContain("ignoring SIGTERM");
  });

  it("SIGTERM closes every connection, stops every process and exits 130", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    const clients = await Promise.all([connect(s.url), connect(s.url)]);
    const pids = await Promise.all(clients.map(handshake));
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(130);
    await Promise.all(clients.map((c) => c.closed));
    for (const pid of pids) await gone(pid);
  });

  it("binding a non-loopback host warns that anyone who can reach it can use the extension", async () => {
    const s = await serve([writeExtension(), "--port", "0", "--host", "0.0.0.0", "--path", "/ext"]);
    expect(s.url).toMatch(/^ws:\/\/0\.0\.0\.0:\d+\/ext$/);
    await waitFor(() => s.stderr().includes("warning:"), "the warning");
    expect(s.stderr()).toContain("anyone who can reach it can use pidder");
    expect(s.stderr()).toContain('"insecure": true');
    s.child.kill("SIGINT");
    expect(await s.exited).toBe(130);
  });

  it("refuses a folder whose manifest has no exec, with a clear error", async () => {
    const dir = writeExtension({ url: "ws://127.0.0.1:1/" });
    const child = spawn(process.execPath, [ZOT, "ext", "serve", dir], { cwd: sb.project, env: sb.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(code).toBe(1);
    expect(stderr).toContain("pidder is not a stdio extension");
  });

  it("zot connects to it through a manifest url and calls the tool", async () => {
    const s = await serve([writeExtension(), "--port", "0"]);
    const hsb = await hostSandbox();
    try {
      const dir = join(hsb.globalDir, "remote");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "pidder", url: s.url, headers: { Authorization: `Bearer ${TOKEN}` } }));
      const t = await startHost(hsb);
      expect(t.host.reports()[0]!.errors).toEqual([]);
      const tool = t.host.tools().find((x) => x.name === "pid")!;
      const ctx: ToolExecutionContext = { cwd: "/", signal: new AbortController().signal };
      const result = await tool.execute({}, ctx);
      expect(result).toMatchObject({ isError: false });
      const pid = hostPid((result.content[0] as { text: string }).text);
      expect(processAlive(pid)).toBe(true);
      await t.host.shutdown();
      await gone(pid);
    } finally {
      await hsb.cleanup();
    }
  });
});

/** An extension whose `probe` tool reports what it can reach, and whose `daemon` tool leaves daemons behind. */
const PROBE = `#!/usr/bin/env node
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
const tryRead = (path) => { try { return readFileSync(path, "utf8"); } catch (e) { return "refused: " + e.code; } };
send({ type: "hello", name: "prober", version: "1.0.0", capabilities: ["tools"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") {
    send({ type: "register_tool", name: "probe", description: "what it reaches", schema: { type: "object", properties: {} } });
    send({ type: "register_tool", name: "daemon", description: "leave daemons", schema: { type: "object", properties: {} } });
    send({ type: "ready" });
  } else if (msg.type === "tool_call" && msg.name === "probe") {
    const status = readFileSync("/proc/self/status", "utf8");
    const text = JSON.stringify({ key: process.env.ANTHROPIC_API_KEY ?? null, secret: tryRead(process.env.SECRET_FILE),
      capEff: /CapEff:\\s+(\\S+)/.exec(status)[1] });
    send({ type: "tool_result", id: msg.id, content: [{ type: "text", text }] });
  } else if (msg.type === "tool_call" && msg.name === "daemon") {
    spawn("setsid", ["sleep", "1001.5"], { detached: true, stdio: "ignore" }).unref();
    spawn("sh", ["-c", "(sleep 1002.5 &) &"], { detached: true, stdio: "ignore" }).unref();
    setTimeout(() => send({ type: "tool_result", id: msg.id, content: [{ type: "text", text: "left" }] }), 200);
  }
});
`;

function writeProber(permissions?: Record<string, unknown>): string {
  const dir = join(sb.base, "prober");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "prober", exec: "./main.mjs", ...(permissions ? { permissions } : {}) }));
  writeFileSync(join(dir, "main.mjs"), PROBE);
  chmodSync(join(dir, "main.mjs"), 0o755);
  return dir;
}

async function callTool(client: Client, name: string): Promise<string> {
  await client.next("hello");
  client.socket.send(JSON.stringify({ type: "hello_ack", protocol_version: 1, zot_version: "test", session_id: "s", cwd: "/" }));
  await client.next("ready");
  client.socket.send(JSON.stringify({ type: "tool_call", id: name, name, args: {} }));
  const result = await client.next("tool_result");
  return (result.content as Array<{ text: string }>)[0]!.text;
}

const running = (marker: string) => execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n").some((l) => l.includes(marker));

describe("zot ext serve runs each connection as zot's host would, and only for whom it should", () => {
  it("a network:none extension gets no provider key, cannot read a host file and holds no capabilities", async () => {
    const secret = join(sb.base, "user-home", "secret.txt");
    mkdirSync(join(sb.base, "user-home"), { recursive: true });
    writeFileSync(secret, "HOST-SECRET");
    const s = await serve([writeProber({ network: "none" }), "--port", "0"], { ANTHROPIC_API_KEY: "sk-ant-api03-served", SECRET_FILE: secret });
    const seen = JSON.parse(await callTool(await connect(s.url), "probe")) as { key: string | null; secret: string; capEff: string };
    expect(seen.key).toBeNull();
    expect(seen.secret).toMatch(/^refused/);
    expect(seen.capEff).toBe("0000000000000000");
  });

  it("a full-access extension still gets no provider key", async () => {
    const s = await serve([writeProber(), "--port", "0"], { ANTHROPIC_API_KEY: "sk-ant-api03-served" });
    expect(JSON.parse(await callTool(await connect(s.url), "probe")).key).toBeNull();
  });

  it("refuses a connection without the token (401), with a wrong one (401), from a foreign page (403) or Host (403)", async () => {
    const s = await serve([writeProber(), "--port", "0"]);
    const attempt = (url: string, headers: Record<string, string> = {}) => connectWsClient(url, sockets, headers).then(() => "opened", (e: Error) => e.message);
    expect(await attempt(s.url)).toMatch(/401/);
    expect(await attempt(`${s.url}?token=guess`)).toMatch(/401/);
    expect(await attempt(s.url, { Authorization: "Bearer guess" })).toMatch(/401/);
    expect(await attempt(`${s.url}?token=${TOKEN}`, { Origin: "https://evil.example" })).toMatch(/403/);
    expect(await attempt(s.url, { Origin: "null" })).toMatch(/401|403/);
    expect(await attempt(`${s.url}?token=${TOKEN}`, { Host: "evil.example" })).toMatch(/403/);
    expect(await attempt(s.url, { Authorization: `Bearer ${TOKEN}` })).toBe("opened");
  });

  it("without ZOT_SERVE_TOKEN it makes one up and prints it", async () => {
    const s = await serve([writeProber(), "--port", "0"], { ZOT_SERVE_TOKEN: "" });
    await waitFor(() => /token: \S+/.test(s.stderr()), "the token line");
    const token = /token: (\S+)/.exec(s.stderr())![1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await connectWsClient(`${s.url}?token=${token}`, sockets);
  });

  for (const signal of ["SIGINT", "SIGTERM", "SIGKILL"] as const) {
    it(`daemons an extension left (setsid, a double fork) do not outlive ${signal} of zot ext serve`, async () => {
      const s = await serve([writeProber(), "--port", "0"]);
      expect(await callTool(await connect(s.url), "daemon")).toBe("left");
      await waitFor(() => running("sleep 1001.5") && running("sleep 1002.5"), "the daemons");
      s.child.kill(signal);
      await s.exited;
      await waitFor(() => !running("sleep 1001.5") && !running("sleep 1002.5"), "the daemons to be gone");
    });
  }
});
