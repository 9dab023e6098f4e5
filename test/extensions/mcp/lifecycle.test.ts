// An MCP extension's lifetime with tiny Node servers on the SDK: cancellation and timeouts send
// notifications/cancelled, list_changed updates the registry, and a server that crashes at start,
// hangs, answers initialize wrongly or dies later becomes a diagnostic; nothing is left running.
// Also the other ways in: a project's .mcp.json, and a server over Streamable HTTP.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostPidIn } from "../../support/host-pid.ts";
import { processAlive } from "../../../lib/process/group.ts";
import { EventBus } from "../../../lib/agent/event-bus.ts";
import { ExtensionHost } from "../../../lib/extensions/host/host.ts";
import { FAST, sandbox, startHost, waitFor, type Sandbox } from "../helpers.ts";
import { httpServerSource, sdkServerSource, writeMcpExtension, writeScript } from "./support.ts";
import { extensionDrivers } from "../../../lib/extensions/runtime/drivers.ts";

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const ctx = (signal = new AbortController().signal) => ({ cwd: sb.cwd, signal });

/** A server whose `wait` tool never answers and records the cancellation it receives. */
function waitingServer(record: string): string {
  return writeScript(sb.scratch, "waiting.mjs", sdkServerSource(`
import { appendFileSync, readlinkSync, writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(`${record}.pid`)}, readlinkSync("/proc/self") + "@" + readlinkSync("/proc/self/ns/pid"));
server.registerTool("wait", { description: "waits until cancelled" }, (extra) => new Promise(() => {
  appendFileSync(${JSON.stringify(record)}, "started\\n");
  extra.signal.addEventListener("abort", () => appendFileSync(${JSON.stringify(record)}, "cancelled\\n"));
}));
server.registerTool("add_tool", { description: "adds a tool" }, async () => {
  server.registerTool("added", { description: "added later" }, async () => ({ content: [{ type: "text", text: "new" }] }));
  return { content: [{ type: "text", text: "added" }] };
});`));
}

const recorded = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

describe("MCP extension lifecycle", () => {
  it("a cancelled call sends notifications/cancelled and ends as cancelled", async () => {
    const record = join(sb.scratch, "wait.log");
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [waitingServer(record)] });
    const { host } = await startHost(sb);
    const abort = new AbortController();
    const pending = host.tools().find((x) => x.name === "tiny_wait")!.execute({}, ctx(abort.signal));
    await waitFor(() => recorded(record).includes("started"), "the call to start");
    abort.abort();
    expect(await pending).toMatchObject({ isError: true, status: "cancelled" });
    await waitFor(() => recorded(record).includes("cancelled"), "the server to see notifications/cancelled");
  });

  it("a call past the tool deadline times out and is cancelled at the server", async () => {
    const record = join(sb.scratch, "wait.log");
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [waitingServer(record)] });
    const { host } = await startHost(sb, { timeouts: { toolCall: 300 } });
    const outcome = await host.tools().find((x) => x.name === "tiny_wait")!.execute({}, ctx());
    expect(outcome).toMatchObject({ isError: true, status: "timed_out", content: [{ text: expect.stringMatching(/300 ms/) }] });
    await waitFor(() => recorded(record).includes("cancelled"), "the server to see notifications/cancelled");
  });

  it("notifications/tools/list_changed updates the registry", async () => {
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [waitingServer(join(sb.scratch, "r"))] });
    const { host } = await startHost(sb);
    expect(host.tools().map((x) => x.name)).toEqual(["tiny_hello", "tiny_wait", "tiny_add_tool"]);
    await host.tools().find((x) => x.name === "tiny_add_tool")!.execute({}, ctx());
    const added = await waitFor(() => host.tools().find((x) => x.name === "tiny_added"), "the new tool");
    expect(await added.execute({}, ctx())).toMatchObject({ content: [{ type: "text", text: "new" }] });
  });

  it("a server that exits at start is a diagnostic with its folder, command, log and exit status", async () => {
    const script = writeScript(sb.scratch, "crash.mjs", `process.stderr.write("boom: missing config\\n"); process.exit(3);`);
    const dir = writeMcpExtension(sb.globalDir, "crashy", { command: process.execPath, args: [script] });
    const t = await startHost(sb);
    const [error] = t.of("ext_error");
    expect(error).toMatchObject({ extension: "crashy", log_path: join(sb.paths.logs, "ext-crashy.log") });
    expect(error!.message).toMatch(/extension "crashy" failed to start: exited with status 3 \(its stderr ends: boom: missing config\) before answering MCP initialize/);
    expect(error!.message).toContain(`folder: ${dir}`);
    expect(error!.message).toContain(`command: ${process.execPath} ${script}`);
    expect(readFileSync(join(sb.paths.logs, "ext-crashy.log"), "utf8")).toContain("boom: missing config");
    expect(t.host.reports()[0]).toMatchObject({ status: "error", running: false, kind: "mcp" });
  });

  it("a server that never answers initialize is stopped at the start-up deadline", async () => {
    const pidFile = join(sb.scratch, "hang.pid");
    const script = writeScript(sb.scratch, "hang.mjs",
      `import { readlinkSync, writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(pidFile)}, readlinkSync("/proc/self") + "@" + readlinkSync("/proc/self/ns/pid")); setInterval(() => {}, 1000);`);
    writeMcpExtension(sb.globalDir, "hangs", { command: process.execPath, args: [script] });
    const t = await startHost(sb, { timeouts: { mcpStart: 1000 } });
    expect(t.of("ext_error")[0]?.message).toMatch(/did not answer MCP initialize .*within 1000 ms/);
    const pid = hostPidIn(pidFile);
    await waitFor(() => !processAlive(pid), "the hung server to be stopped");
  });

  it("shutting down while a server is still starting stops it without calling it a failure", async () => {
    const pidFile = join(sb.scratch, "slow.pid");
    const script = writeScript(sb.scratch, "slow.mjs",
      `import { readlinkSync, writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(pidFile)}, readlinkSync("/proc/self") + "@" + readlinkSync("/proc/self/ns/pid")); setInterval(() => {}, 1000);`);
    writeMcpExtension(sb.globalDir, "slow", { command: process.execPath, args: [script] });
    const bus = new EventBus({ id: "s", cwd: sb.cwd });
    const errors: string[] = [];
    bus.subscribe((e) => e.type === "ext_error" && errors.push(e.message));
    const host = new ExtensionHost({ cwd: sb.cwd, paths: sb.paths, interactive: false, timeouts: { ...FAST, mcpStart: 60_000 }, drivers: extensionDrivers,
      agent: { bus, info: () => ({ provider: "anthropic", model: "m" }) } });
    const starting = host.start();
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8"), "the server to start", 15_000);
    await host.shutdown();
    await starting;
    expect(processAlive(hostPidIn(pidFile))).toBe(false);
    expect(errors).toEqual([]);
    expect(host.reports()[0]!.errors).toEqual([]);
  });

  it("a server that never answers initialize costs the hello deadline by default, and names startup_timeout_ms", async () => {
    const script = writeScript(sb.scratch, "mute.mjs", "setInterval(() => {}, 1000);");
    writeMcpExtension(sb.globalDir, "mute", { command: process.execPath, args: [script] });
    const t = await startHost(sb, { timeouts: { hello: 400, mcpStart: 400 } });
    expect(t.host.reports()[0]!.errors[0]).toMatch(/did not answer MCP initialize \(and list its tools\) within 400 ms; a slow server can be given longer with startup_timeout_ms/);
  });

  it("a slow server with startup_timeout_ms does not hold the run up: the start goes on, and its tools join once it is ready", async () => {
    const gate = join(sb.scratch, "may-start");
    const script = writeScript(sb.scratch, "late.mjs", sdkServerSource().replace("await server.connect(", `
const { existsSync } = await import("node:fs");
while (!existsSync(${JSON.stringify(gate)})) await new Promise((r) => setTimeout(r, 20));
await server.connect(`));
    writeMcpExtension(sb.globalDir, "late", { command: process.execPath, args: [script], startup_timeout_ms: 30_000 });
    // The start is over while the server still waits for its gate: it held nothing up.
    const t = await startHost(sb, { timeouts: { hello: 300 } });
    expect(t.host.tools()).toEqual([]);
    writeFileSync(gate, "");
    await waitFor(() => t.host.tools().some((x) => x.name === "late_hello"), "the late server's tools", 15_000);
    expect(t.of("ext_error")).toEqual([]);
  });

  it("a slow server that fails after the run went on is an ext_error then", async () => {
    const script = writeScript(sb.scratch, "dies.mjs", "setTimeout(() => process.exit(5), 600);");
    writeMcpExtension(sb.globalDir, "dies", { command: process.execPath, args: [script], startup_timeout_ms: 30_000 });
    const t = await startHost(sb, { timeouts: { hello: 200 } });
    expect(t.of("ext_error")).toEqual([]);
    const error = await waitFor(() => t.of("ext_error")[0], "the late failure", 10_000);
    expect(error).toMatchObject({ extension: "dies", message: expect.stringMatching(/exited with status 5 before answering MCP initialize/) });
  });

  it("a server that answers initialize wrongly is a diagnostic", async () => {
    const script = writeScript(sb.scratch, "wrong.mjs", `
process.stdin.on("data", (chunk) => {
  for (const line of chunk.toString().split("\\n").filter(Boolean)) {
    const { id } = JSON.parse(line);
    if (id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "w", version: "0" } } }) + "\\n");
  }
});`);
    writeMcpExtension(sb.globalDir, "wrong", { command: process.execPath, args: [script] });
    const t = await startHost(sb);
    expect(t.of("ext_error")[0]?.message).toMatch(/extension "wrong" failed to start: answered MCP initialize wrongly: .*protocol version/i);
  });

  it("a server that dies after start disables its tools and is reported, and its tools say so", async () => {
    const record = join(sb.scratch, "wait.log");
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [waitingServer(record)] });
    const t = await startHost(sb);
    const wait = t.host.tools().find((x) => x.name === "tiny_wait")!;
    process.kill(hostPidIn(`${record}.pid`), "SIGKILL");
    await waitFor(() => t.of("ext_error").length > 0, "the death to be reported");
    expect(t.of("ext_error")[0]!.message).toMatch(/extension "tiny" stopped: was terminated by signal SIGKILL unexpectedly/);
    expect(t.host.tools().map((x) => x.name)).not.toContain("tiny_wait");
    expect(await wait.execute({}, ctx())).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/not running/) }] });
  });

  it("shutdown stops the server process", async () => {
    const record = join(sb.scratch, "wait.log");
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [waitingServer(record)] });
    const { host } = await startHost(sb);
    const pid = hostPidIn(`${record}.pid`);
    expect(processAlive(pid)).toBe(true);
    await host.shutdown();
    expect(processAlive(pid)).toBe(false);
    // Closing stdin stopped this well-behaved server: no grace period ran out, no signal was needed.
    expect(readFileSync(join(sb.paths.logs, "ext-tiny.log"), "utf8")).not.toMatch(/did not exit within|SIGTERM/);
  });
});

describe("a project's .mcp.json", () => {
  it("declares project-local MCP extensions: its servers start, disabled and SSE ones do not, a folder of the same name wins", async () => {
    const script = writeScript(sb.scratch, "tiny.mjs", sdkServerSource());
    writeFileSync(join(sb.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {
      tiny: { command: process.execPath, args: [script], type: "stdio" },
      off: { command: process.execPath, args: [script], disabled: true },
      taken: { command: process.execPath, args: [script] },
      legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
    } }));
    writeMcpExtension(sb.projectDir, "taken", { command: process.execPath, args: [script] }, { prefix: false });
    const t = await startHost(sb);
    const reports = Object.fromEntries(t.host.reports().map((r) => [r.name, r]));
    expect(reports.tiny).toMatchObject({ kind: "mcp", scope: "project", status: "ok", source: join(sb.cwd, ".mcp.json") });
    expect(reports.off).toMatchObject({ status: "disabled" });
    expect(t.host.reports().filter((r) => r.name === "taken").map((r) => r.status)).toEqual(["ok", "shadowed"]);
    expect(reports.legacy).toMatchObject({ status: "error", errors: [expect.stringMatching(/server "legacy": the SSE transport is not supported/)] });
    expect(t.host.tools().map((x) => x.name).sort()).toEqual(["hello", "tiny_hello"]);
    expect(await t.host.tools().find((x) => x.name === "tiny_hello")!.execute({}, ctx())).toMatchObject({ content: [{ text: "hello" }] });
  });

  it("a broken .mcp.json is an error naming the file, and the other extensions still load", async () => {
    writeFileSync(join(sb.cwd, ".mcp.json"), "{ not json");
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [writeScript(sb.scratch, "tiny.mjs", sdkServerSource())] });
    const t = await startHost(sb);
    expect(t.of("ext_error")[0]?.message).toMatch(/\.mcp\.json: invalid JSON/);
    expect(t.host.tools().map((x) => x.name)).toEqual(["tiny_hello"]);
  });
});

describe("an MCP server whose command does not exist", () => {
  it.each([["in its PID namespace", true], ["without one (--no-sandbox)", false]])(
    "%s, is reported as a native extension is: the executable was not found, with its name and PATH", async (_how, sandboxed) => {
      writeMcpExtension(sb.globalDir, "ghost", { command: "zot-no-such-mcp-server", args: ["stdio"] });
      const t = await startHost(sb, { sandbox: { enabled: sandboxed } });
      const error = t.host.reports()[0]!.errors.join("\n");
      expect(error).toMatch(/^extension "ghost" failed to start: spawn zot-no-such-mcp-server ENOENT: no executable zot-no-such-mcp-server on PATH \(.+\)/);
      expect(error).toContain(process.env.PATH!);
      expect(error).not.toMatch(/answered MCP initialize wrongly|stdin is closed/);
    });
});

describe(".mcp.json variables", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  });

  it("${VAR} and ${VAR:-default} expand in url, headers, command, args and env when the server starts; doctor keeps ${VAR}", async () => {
    process.env.ZOT_TEST_TOKEN = "s3cret";
    process.env.ZOT_TEST_NODE = process.execPath;
    const script = writeScript(sb.scratch, "http.mjs", httpServerSource());
    const server = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolveUrl) => server.stdout.setEncoding("utf8").once("data", (d: string) => resolveUrl(d.trim())));
      const tiny = writeScript(sb.scratch, "tiny.mjs", sdkServerSource(`
server.registerTool("envvar", { description: "its env" }, async () => ({ content: [{ type: "text", text: String(process.env.GREETING) }] }));`));
      process.env.ZOT_TEST_PORT_URL = url;
      writeFileSync(join(sb.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {
        web: { type: "http", url: "${ZOT_TEST_PORT_URL}", headers: { Authorization: "Bearer ${ZOT_TEST_TOKEN}" } },
        local: { command: "${ZOT_TEST_NODE}", args: ["${ZOT_TEST_DIR:-" + sb.scratch + "}/tiny.mjs"], env: { GREETING: "hi ${ZOT_TEST_WHO:-there}" } },
      } }));
      expect(tiny).toBe(join(sb.scratch, "tiny.mjs"));
      const t = await startHost(sb);
      const call = (name: string) => t.host.tools().find((x) => x.name === name)!.execute({}, ctx());
      expect(await call("web_whoami")).toMatchObject({ content: [{ text: "Bearer s3cret" }] });
      expect(await call("local_envvar")).toMatchObject({ content: [{ text: "hi there" }] });
      expect(JSON.stringify(t.host.reports())).not.toContain("s3cret");
      expect(t.host.reports().find((r) => r.name === "local")!.exec).toContain("${ZOT_TEST_NODE}");
    } finally {
      server.kill();
    }
  });

  it("an unset variable without a default is an error naming the server and the variable; the server does not start", async () => {
    const record = join(sb.scratch, "started");
    writeFileSync(join(sb.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {
      needy: { command: "sh", args: ["-c", `touch ${record}`], env: { API: "${ZOT_TEST_UNSET_VAR}" } },
    } }));
    const t = await startHost(sb);
    expect(t.host.reports()[0]!.errors.join("\n")).toMatch(
      /extension "needy" failed to start: cannot start: .*\.mcp\.json: \$\{ZOT_TEST_UNSET_VAR\} is not set and has no default/);
    expect(existsSync(record)).toBe(false);
  });
});

describe("an MCP server over Streamable HTTP", () => {
  it("connects to the URL with the manifest's headers and calls its tools", async () => {
    const script = writeScript(sb.scratch, "http.mjs", httpServerSource());
    const server = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        server.stdout.setEncoding("utf8").once("data", (d: string) => resolveUrl(d.trim()));
        server.once("exit", () => reject(new Error("the HTTP server exited")));
      });
      writeMcpExtension(sb.globalDir, "web", { url, headers: { Authorization: "Bearer t0k" } });
      const t = await startHost(sb);
      expect(t.host.reports()[0]).toMatchObject({ status: "ok", mcp: { transport: "http", server: "tiny-http", version: "0.2.0" } });
      expect(await t.host.tools().find((x) => x.name === "web_whoami")!.execute({}, ctx()))
        .toMatchObject({ isError: false, content: [{ type: "text", text: "Bearer t0k" }] });
      expect(readFileSync(join(sb.paths.logs, "ext-web.log"), "utf8")).toContain(`connecting to MCP server web: ${url}`);
    } finally {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill();
      await exited;
    }
  });
});
