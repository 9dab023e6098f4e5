// WebSocket extensions (a manifest `url` instead of `exec`) against a real server process: the
// protocol over one text message per frame, supervision mapped onto the connection (a dropped
// server fails calls and is reconnected with backoff), and the security rules of the URL.
import { execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolExecutionContext } from "../../../lib/tools/types.ts";
import { checkManifest } from "../../../lib/extensions/catalog/manifest.ts";
import { diagnoseExtensions } from "../../../lib/extensions/host/doctor.ts";
import { extensionDrivers } from "../../../lib/extensions/runtime/drivers.ts";
import { renderReport } from "../../../lib/cli/ext/doctor.ts";
import { startWsFixture, type WsFixture } from "../../support/ws-fixture.ts";
import { FAST, sandbox, startHost, waitFor, type Sandbox } from "../helpers.ts";

const ctx = (): ToolExecutionContext => ({ cwd: "/", signal: new AbortController().signal });

let sb: Sandbox;
const servers = new Set<ChildProcess>();
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  for (const s of servers) s.kill("SIGKILL");
  servers.clear();
  await sb.cleanup();
});

type Server = WsFixture;

/** Starts the fixture server (killed after each test); resolves once it listens. */
async function startServer(port = 0, options: Record<string, unknown> = {}): Promise<Server> {
  const server = await startWsFixture(port, options);
  servers.add(server.process);
  return server;
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((r) => server.process.once("exit", r));
  server.process.kill("SIGKILL");
  await exited;
  servers.delete(server.process);
}

function writeUrlExtension(manifest: Record<string, unknown>, name = "remote"): string {
  const dir = join(sb.globalDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, ...manifest }));
  return dir;
}

describe("a WebSocket extension", () => {
  it("registers over the socket and its tool answers a call; shutdown gets shutdown_ack", async () => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const t = await startHost(sb);
    expect(t.host.reports()[0]!.errors).toEqual([]);
    const echo = t.host.tools().find((x) => x.name === "echo")!;
    expect(await echo.execute({ text: "hi" }, ctx())).toMatchObject({ isError: false, content: [{ type: "text", text: "session 1: hi" }] });
    await t.host.shutdown();
    expect(server.stderr()).toContain("got shutdown\n");
  });

  it("expands ${VAR} in headers when it connects (a wrong token is refused with the HTTP status)", async () => {
    const server = await startServer(0, { token: "s3cret" });
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/`, headers: { Authorization: "Bearer ${ZOT_TEST_WS_TOKEN}" } });
    process.env.ZOT_TEST_WS_TOKEN = "wrong";
    try {
      const refused = await startHost(sb);
      expect(refused.host.reports()[0]!.errors.join("\n")).toContain("answered the upgrade with HTTP 401");
      await refused.host.shutdown();
      process.env.ZOT_TEST_WS_TOKEN = "s3cret";
      const t = await startHost(sb);
      expect(t.host.tools().map((x) => x.name)).toEqual(["echo", "hang"]);
    } finally {
      delete process.env.ZOT_TEST_WS_TOKEN;
    }
  });

  it("killing the server mid-call fails the call with a clear reason, and zot reconnects once it is back", async () => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const t = await startHost(sb, { timeouts: { toolCall: 60_000 } });
    const hang = t.host.tools().find((x) => x.name === "hang")!;
    const call = hang.execute({}, ctx());
    await waitFor(() => server.stderr().includes("got tool_call"), "the call to arrive");
    await stopServer(server);
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.content[0]).toMatchObject({ text: expect.stringMatching(/tool hang \(extension "remote"\) failed: the extension stopped/) });
    expect(t.of("ext_error").map((e) => e.message).join("\n")).toMatch(/ws:\/\/127\.0\.0\.1:\d+\/|closed the connection/);
    const again = await startServer(server.port);
    await waitFor(() => t.host.reports()[0]?.ready === "ready", "the reconnect", 5000);
    const echo = t.host.tools().find((x) => x.name === "echo")!;
    expect((await echo.execute({ text: "back" }, ctx())).content[0]).toMatchObject({ text: "session 1: back" });
    expect(again.stderr()).toContain("got hello_ack");
  });

  it("gives up after the reconnect attempts, saying so", async () => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const t = await startHost(sb, { limits: { reconnectAttempts: 2 } as never });
    await stopServer(server);
    await waitFor(() => t.of("ext_error").some((e) => /gave up reconnecting after 2 attempts/.test(e.message)), "giving up", 8000);
    expect(t.host.reports()[0]!.running).toBe(false);
  });

  it("a binary message is a protocol error", async () => {
    const server = await startServer(0, { binary: true });
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const t = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
    await waitFor(() => t.of("ext_error").some((e) => /sent a binary message; frames are text messages/.test(e.message)), "the failure");
  });

  it("a refused connection is reported like a crash, with the URL", async () => {
    const server = await startServer();
    await stopServer(server);
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const t = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
    const report = t.host.reports()[0]!;
    expect(report.errors.join("\n")).toContain(`cannot connect to ws://127.0.0.1:${server.port}/`);
    expect(report.errors.join("\n")).toContain("url");
    expect(readFileSync(report.log_path!, "utf8")).toContain(`connecting to remote: ws://127.0.0.1:${server.port}/`);
  });

  it("wss:// verifies the server's certificate: refused without its CA, connected with the manifest's ca", async () => {
    const key = join(sb.scratch, "key.pem");
    const cert = join(sb.scratch, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
      "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
    const server = await startServer(0, { tls: { key, cert } });
    writeUrlExtension({ url: `wss://127.0.0.1:${server.port}/` }, "remote");
    const refused = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
    expect(refused.host.reports()[0]!.errors.join("\n")).toMatch(/cannot connect to wss:\/\/127\.0\.0\.1:\d+\/: self[- ]signed certificate/);
    await refused.host.shutdown();
    writeFileSync(join(sb.globalDir, "remote", "cert.pem"), readFileSync(cert));
    writeUrlExtension({ url: `wss://127.0.0.1:${server.port}/`, ca: "cert.pem" }, "remote");
    const t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name)).toEqual(["echo", "hang"]);
  });

  it("plain ws:// to another machine is refused unless the manifest says insecure", async () => {
    writeUrlExtension({ url: "ws://192.0.2.1:9/" });
    const t = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
    expect(t.host.reports()[0]!.errors.join("\n")).toContain("plain ws:// to another machine sends every frame unencrypted");
  });
});

describe("the secrets a WebSocket extension's manifest names", () => {
  const SECRET = "s3cr3t-path-token-0123";
  const diagnose = () => diagnoseExtensions({ cwd: sb.cwd, paths: sb.paths, provider: "anthropic", model: "m",
    builtinCommands: [], drivers: extensionDrivers, timeouts: FAST });

  it.each([["a refused connection", false], ["an upgrade answered with HTTP 401", true]])(
    "a ${VAR} in the URL stays unexpanded in the log, the error and doctor after %s; the log is 0600 in a 0700 folder", async (_what, listening) => {
      const server = await startServer(0, { token: "other" });
      if (!listening) await stopServer(server);
      writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/\${ZOT_TEST_WS_SECRET}/x` });
      process.env.ZOT_TEST_WS_SECRET = SECRET;
      try {
        const t = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
        const report = t.host.reports()[0]!;
        const errors = report.errors.join("\n");
        expect(errors).toContain(`cannot connect to ws://127.0.0.1:${server.port}/\${ZOT_TEST_WS_SECRET}/x`);
        const events = JSON.stringify(t.of("ext_error"));
        const log = readFileSync(report.log_path!, "utf8");
        await t.host.shutdown();
        const doctor = await diagnose();
        const shown = [errors, events, log, JSON.stringify(doctor), renderReport(doctor.extensions[0]!)].join("\n");
        expect(shown).not.toContain(SECRET);
        expect(statSync(report.log_path!).mode & 0o777).toBe(0o600);
        expect(statSync(dirname(report.log_path!)).mode & 0o777).toBe(0o700);
      } finally {
        delete process.env.ZOT_TEST_WS_SECRET;
      }
    });

  it("a log an older zot left readable to others is tightened to 0600 when written again", async () => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` });
    const first = await startHost(sb);
    const path = first.host.reports()[0]!.log_path!;
    await first.host.shutdown();
    chmodSync(path, 0o644);
    chmodSync(dirname(path), 0o755);
    const again = await startHost(sb);
    await again.host.shutdown();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it.each([
    ["a line break", "ok\r\nX-Injected: 1", /header X-Token holds a line break/],
    ["a character outside Latin-1", "caf\u20ac", /header X-Token holds a control character or a character outside Latin-1/],
  ])("a header whose ${VAR} expands to %s is a diagnostic of that extension; the others start", async (_what, value, message) => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/`, headers: { "X-Token": "\${ZOT_TEST_WS_HEADER}" } }, "bad");
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/` }, "remote");
    process.env.ZOT_TEST_WS_HEADER = value;
    try {
      const t = await startHost(sb, { limits: { reconnectAttempts: 0 } as never });
      const bad = t.host.reports().find((r) => r.name === "bad")!;
      expect(bad.errors.join("\n")).toMatch(message);
      expect(bad.errors.join("\n")).not.toContain(value);
      expect(t.host.reports().find((r) => r.name === "remote")!.errors).toEqual([]);
      expect(t.host.tools().map((x) => x.name)).toContain("echo");
    } finally {
      delete process.env.ZOT_TEST_WS_HEADER;
    }
  });
});

describe("zot ext doctor of a WebSocket extension", () => {
  const diagnose = () => diagnoseExtensions({ cwd: sb.cwd, paths: sb.paths, provider: "anthropic", model: "m",
    builtinCommands: [], drivers: extensionDrivers, timeouts: FAST });

  it("shows the URL, the connect and handshake times, and that zot's OS sandbox does not apply", async () => {
    const server = await startServer();
    writeUrlExtension({ url: `ws://127.0.0.1:${server.port}/`, permissions: { tools: ["echo"], network: "all" } });
    const report = (await diagnose()).extensions[0]!;
    expect(report).toMatchObject({ kind: "websocket", status: "ok", exec: `ws://127.0.0.1:${server.port}/`,
      remote: { url: `ws://127.0.0.1:${server.port}/`, connect_ms: expect.any(Number), handshake_ms: expect.any(Number) } });
    expect(report.warnings.join("\n")).toContain("permissions.network cannot be enforced for a remote extension");
    const text = renderReport(report);
    expect(text).toMatch(/url: +ws:\/\/127\.0\.0\.1:\d+\//);
    expect(text).toMatch(/connect: +\d+ ms, handshake \d+ ms \(hello → ready\)/);
    expect(text).toContain("remote: files, network and exec are the server's");
  });

  it("warns about plain ws:// to another machine that the manifest allows with insecure", async () => {
    writeUrlExtension({ url: "ws://zot-test.invalid:9/", insecure: true });
    const report = (await diagnose()).extensions[0]!;
    expect(report.warnings.join("\n")).toContain("insecure: plain ws:// to another machine");
  });
});

describe("the manifest of a WebSocket extension", () => {
  it("refuses a header name or value HTTP cannot carry, without quoting the value", () => {
    const check = (headers: Record<string, string>) => () => checkManifest("/x", { name: "a", url: "wss://h/", headers }, false);
    expect(check({ "X-A": "secret\r\nX-B: 1" })).toThrow(/header X-A holds a line break/);
    expect(check({ "X-A": "secret\u2028" })).toThrow(/outside Latin-1/);
    expect(check({ "X A": "v" })).toThrow(/not a valid HTTP header name/);
    expect(check({ "X-A": "secret\n" })).not.toThrow(/secret/);
    expect(check({ "X-A": "Bearer ${T}", "X-B": "caf\u00e9" })).not.toThrow();
  });

  it("needs a ws:// or wss:// url, and excludes exec and mcp", () => {
    expect(checkManifest("/x", { name: "a", url: "wss://guard.example/ext" }, false).kind).toBe("websocket");
    expect(() => checkManifest("/x", { name: "a", url: "https://guard.example" }, false)).toThrow(/url must be a ws:\/\/ or wss:\/\/ URL/);
    expect(() => checkManifest("/x", { name: "a", url: "ws://h/", exec: "x" }, false)).toThrow(/exec, url, mcp and hooks exclude each other/);
  });
});
