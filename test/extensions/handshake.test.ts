import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROTOCOL_VERSION } from "../../lib/protocol/index.ts";
import { ZOT_VERSION } from "../../lib/version.ts";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, readRecord, sandbox, startHost, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";
import { hostPidIn } from "../support/host-pid.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

const displayCwd = `ctx.send({type:"command_response",id:msg.id,action:"display",display:"ok "+msg.args})`;

describe("Lifecycle: spawn, logs and the hello handshake", () => {
  it("hello_ack carries every field of the spec", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    const dir = writeExtension(sb.globalDir, "acked", { name: "acked", record });
    t = await startHost(sb);
    const ack = await waitFor(() => readRecord(record).find((f) => f.type === "hello_ack"), "hello_ack");
    expect(ack).toEqual({
      type: "hello_ack", protocol_version: PROTOCOL_VERSION, zot_version: ZOT_VERSION, provider: "anthropic",
      model: "test-model", cwd: sb.cwd, extension_dir: dir, data_dir: dir, capabilities: expect.arrayContaining(["call_tool"]),
    });
  });

  it("stderr is appended to $ZOT_HOME/logs/ext-<name>.log after a host header line", async () => {
    writeExtension(sb.globalDir, "chatty", { name: "chatty", start: `ctx.log("stderr line from chatty")` });
    t = await startHost(sb);
    await t.host.reload();
    const log = extensionLogPath(sb.paths, "chatty");
    const text = await waitFor(() => {
      const content = readFileSync(log, "utf8");
      return content.split("\n").filter((l) => l === "stderr line from chatty").length === 2 && content;
    }, "two runs in the log");
    const headers = text.split("\n").filter((l) => /^\[zot\] .* starting chatty: /.test(l));
    expect(headers).toHaveLength(2); // append mode: the first run's lines are kept
    expect(t.host.reports()[0]!.log_path).toBe(log);
  });

  it("extensions start in parallel (each waits for the other before saying hello)", async () => {
    // Sequential startup would deadlock here and end in hello timeouts.
    for (const [self, peer] of [["a", "b"], ["b", "a"]] as const) {
      writeExtension(sb.globalDir, self, {
        name: self, noHello: true,
        start: `const dir = ${JSON.stringify(sb.scratch)};
          ctx.fs.writeFileSync(dir + "/${self}.started", "");
          const poll = setInterval(() => {
            if (!ctx.fs.existsSync(dir + "/${peer}.started")) return;
            clearInterval(poll);
            ctx.send({ type: "hello", name: ${JSON.stringify(self)}, version: "1" });
          }, 10);`,
        on: { hello_ack: `ctx.send({type:"ready"})` },
      });
    }
    t = await startHost(sb);
    expect(t.host.reports().map((r) => [r.name, r.status, r.ready])).toEqual([["a", "ok", "ready"], ["b", "ok", "ready"]]);
  });

  it("an extension that crashes before hello fails with its exit status, folder, exec, language and log", async () => {
    const dir = writeExtension(sb.globalDir, "crashy", { name: "crashy", exitBeforeHello: 3 }, { language: "javascript" });
    writeExtension(sb.globalDir, "healthy", { name: "healthy", register: [command("fine")], on: { command_invoked: displayCwd } });
    t = await startHost(sb);
    const report = t.host.reports().find((r) => r.name === "crashy")!;
    expect(report.status).toBe("error");
    const error = report.errors[0]!;
    expect(error).toMatch(/extension "crashy" failed to start: exited with status 3 \(its stderr ends: exiting before hello on purpose\) before sending hello/);
    expect(error).toContain(`folder: ${dir}`);
    expect(error).toContain(`exec: ${process.execPath}`);
    expect(error).toContain("language: javascript");
    expect(error).toContain(`log: ${extensionLogPath(sb.paths, "crashy")}`);
    expect(t.of("ext_error")).toEqual([{ type: "ext_error", extension: "crashy", message: error,
      log_path: extensionLogPath(sb.paths, "crashy") }]);
    expect(readFileSync(extensionLogPath(sb.paths, "crashy"), "utf8")).toContain("exiting before hello on purpose");
    expect(await t.host.invokeCommand("fine", "x")).toMatchObject({ display: "ok x" });
  });

  it("an extension killed by a signal before hello reports the signal", async () => {
    writeExtension(sb.globalDir, "sig", { name: "sig", noHello: true, start: `process.kill(process.pid, "SIGKILL")` });
    t = await startHost(sb);
    expect(t.host.reports()[0]!.errors[0]).toMatch(/terminated by signal SIGKILL before sending hello/);
  });

  it("a missing executable is a startup error naming it", async () => {
    writeExtension(sb.globalDir, "nope", { name: "nope" }, { exec: "./does-not-exist", language: "go" });
    t = await startHost(sb);
    const error = t.host.reports()[0]!.errors[0]!;
    expect(error).toMatch(/ENOENT/);
    expect(error).toContain("exec: ./does-not-exist");
    expect(error).toContain("language: go");
  });

  it("a hello whose name differs from the manifest is rejected", async () => {
    writeExtension(sb.globalDir, "liar", { name: "liar", helloName: "someone-else" });
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ status: "error", errors: [expect.stringMatching(/hello name "someone-else" does not match the manifest name "liar"/)] });
  });

  it("an extension that never says hello does not hang startup and is stopped", async () => {
    const pidFile = join(sb.scratch, "pid");
    writeExtension(sb.globalDir, "silent", { name: "silent", noHello: true, pidFile });
    t = await startHost(sb, { timeouts: { hello: 1000 } });
    const report = t.host.reports()[0]!;
    expect(report).toMatchObject({ status: "error", ready: "timeout" });
    expect(report.errors[0]).toMatch(/did not send hello within 1000 ms/);
    const pid = hostPidIn(pidFile);
    await waitFor(() => { try { process.kill(pid, 0); return false; } catch { return true; } }, "the silent extension to be killed");
  });

  it("a malformed hello fails the handshake at once with the validation error", async () => {
    writeExtension(sb.globalDir, "malformed", { name: "malformed", noHello: true, start: `ctx.send({type:"hello",name:"malformed",capabilities:"tools"})` });
    t = await startHost(sb, { timeouts: { hello: 60_000 } });
    expect(t.host.reports()[0]!.errors[0]).toMatch(/sent an invalid hello: hello: capabilities: capabilities must be an array of strings/);
  });

  it("a frame other than hello first is a handshake error", async () => {
    writeExtension(sb.globalDir, "eager", { name: "eager", noHello: true, start: `ctx.send({type:"notify",message:"too early"})` });
    t = await startHost(sb);
    expect(t.host.reports()[0]!.errors[0]).toMatch(/sent a notify frame before hello/);
  });
});

describe("Lifecycle: registration and ready", () => {
  it("registrations sent after hello_ack and then ready mark the extension ready", async () => {
    writeExtension(sb.globalDir, "modern", { name: "modern", register: [command("modern")], on: { command_invoked: displayCwd } });
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", ready: "ready", commands: ["modern"] });
    expect(t.host.reports()[0]!.startup_ms).toBeGreaterThanOrEqual(0);
  });

  it("a legacy extension that registers before reading hello_ack and never sends ready works (auto-ready)", async () => {
    writeExtension(sb.globalDir, "legacy", { name: "legacy", legacy: true, register: [command("old")], on: { command_invoked: displayCwd } });
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", ready: "auto", commands: ["old"] });
    expect(await t.host.invokeCommand("old", "  spaced args  ")).toMatchObject({ action: "display", display: "ok spaced args" });
  });

  it("an extension that registers after hello_ack but never sends ready is auto-readied", async () => {
    writeExtension(sb.globalDir, "noready", { name: "noready", noReady: true, register: [command("nr")], on: { command_invoked: displayCwd } });
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ ready: "auto", commands: ["nr"] });
    expect(await t.host.invokeCommand("nr", "")).toMatchObject({ display: "ok " });
  });

  it("auto-ready fires after the idle window of silence after hello_ack, long before the ready deadline", async () => {
    writeExtension(sb.globalDir, "quiet", { name: "quiet", noReady: true, register: [command("q")] });
    t = await startHost(sb, { timeouts: { ready: 10_000, readyIdle: 100 } });
    const report = t.host.reports()[0]!;
    expect(report).toMatchObject({ ready: "auto", commands: ["q"] });
    expect(readFileSync(extensionLogPath(sb.paths, "quiet"), "utf8")).toMatch(/100 ms of silence after hello_ack; treating it as ready/);
  });

  it("each frame during registration restarts the idle window, so a chatty extension's registrations all count before auto-ready", async () => {
    writeExtension(sb.globalDir, "chatty", { name: "chatty", noReady: true,
      start: `let n = 0; const tick = () => { ctx.send({type: "register_command", name: "c" + n}); if (++n < 4) ctx.later(60, tick); }; ctx.later(60, tick);` });
    t = await startHost(sb, { timeouts: { ready: 10_000, readyIdle: 150 } });
    expect(t.host.reports()[0]).toMatchObject({ ready: "auto", commands: ["c0", "c1", "c2", "c3"] });
    expect(readFileSync(extensionLogPath(sb.paths, "chatty"), "utf8")).not.toMatch(/arrived after ready/);
  });

  it("manifest args reach the process one by one, an argument with spaces included", async () => {
    const dir = join(sb.globalDir, "argv");
    mkdirSync(dir, { recursive: true });
    const record = join(sb.scratch, "argv.txt");
    writeFileSync(join(dir, "ext.sh"), [
      `out="$1"; shift; printf '%s\\n' "$#" "$@" > "$out"`,
      `echo '{"type":"hello","name":"argv","version":"1.0.0"}'`,
      `read ack; echo '{"type":"ready"}'`,
      `while read line; do case "$line" in *'"shutdown"'*) exit 0;; esac; done`,
    ].join("\n"));
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "argv", exec: "sh", args: ["./ext.sh", record, "plain", "two words", "  padded  "] }));
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", ready: "ready" });
    expect(readFileSync(record, "utf8")).toBe("3\nplain\ntwo words\n  padded  \n");
  });

  it("a registration that arrives after ready still counts, and is logged as late", async () => {
    writeExtension(sb.globalDir, "late", { name: "late", register: [command("now")],
      on: { command_invoked: `ctx.send({type:"register_command",name:"later"}); ctx.send({type:"command_response",id:msg.id,action:"noop"})` } });
    t = await startHost(sb);
    await t.host.invokeCommand("now", "");
    expect(t.host.commands().map((c) => c.name)).toEqual(["now", "later"]);
    expect(readFileSync(extensionLogPath(sb.paths, "late"), "utf8")).toMatch(/register_command "later" arrived after ready/);
  });

  it("a crash after ready disables only that extension's commands and tools", async () => {
    writeExtension(sb.globalDir, "fragile", { name: "fragile", register: [command("boom"), { type: "register_tool", name: "fragile_tool", description: "x", schema: { type: "object" } }],
      on: { command_invoked: `process.exit(7)` } });
    writeExtension(sb.globalDir, "sturdy", { name: "sturdy", register: [command("fine")], on: { command_invoked: displayCwd } });
    t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name)).toEqual(["fragile_tool"]);
    const response = await t.host.invokeCommand("boom", "");
    expect(response).toMatchObject({ error: expect.stringMatching(/boom/) });
    await waitFor(() => t!.of("ext_error").length > 0, "ext_error");
    expect(t.of("ext_error")[0]!.message).toMatch(/extension "fragile" stopped: exited with status 7( \(its stderr ends: [^)]*\))? unexpectedly/);
    expect(t.host.commands().map((c) => c.name)).toEqual(["fine"]);
    expect(t.host.tools()).toEqual([]);
    expect(await t.host.invokeCommand("boom", "")).toMatchObject({ error: expect.stringMatching(/not running/) });
    expect(await t.host.invokeCommand("fine", "still")).toMatchObject({ display: "ok still" });
    expect(t.host.reports().find((r) => r.name === "fragile")!.status).toBe("error");
  });
});
