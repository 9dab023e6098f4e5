import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, FIXTURES, processRunning, readRecord, sandbox, startHost, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";
import { hostPidIn } from "../support/host-pid.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

const pidOf = (file: string) => hostPidIn(file);

describe("Lifecycle: shutdown", () => {
  it("sends shutdown after draining queued events (session_end arrives first); a cooperative extension exits", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    const pidFile = join(sb.scratch, "pid");
    writeExtension(sb.globalDir, "polite", { name: "polite", record, pidFile, register: [{ type: "subscribe", events: ["session_end"] }] });
    t = await startHost(sb);
    t.bus.lifecycle({ type: "session_end", reason: "shutdown" });
    await t.host.shutdown();
    const types = readRecord(record).map((f) => (f.type === "event" ? `event:${f.event}` : f.type));
    expect(types).toEqual(["hello_ack", "event:session_end", "shutdown"]);
    expect(processRunning(pidOf(pidFile))).toBe(false);
  });

  it("an extension that ignores shutdown is SIGTERMed; one that also ignores SIGTERM is SIGKILLed", async () => {
    const a = join(sb.scratch, "a.pid");
    const b = join(sb.scratch, "b.pid");
    writeExtension(sb.globalDir, "stubborn", { name: "stubborn", pidFile: a, ignoreShutdown: true });
    writeExtension(sb.globalDir, "very-stubborn", { name: "very-stubborn", pidFile: b, ignoreShutdown: true, ignoreTerm: true });
    t = await startHost(sb, { timeouts: { shutdownGrace: 200 } });
    await t.host.shutdown();
    expect(processRunning(pidOf(a))).toBe(false);
    expect(processRunning(pidOf(b))).toBe(false);
    expect(readFileSync(extensionLogPath(sb.paths, "very-stubborn"), "utf8")).toContain("ignoring SIGTERM");
    expect(readFileSync(extensionLogPath(sb.paths, "stubborn"), "utf8")).toMatch(/did not exit within 200 ms of shutdown/);
  });

  it("draining, shutdown and the wait for the exit share one grace period: a drain that uses it up leaves none for shutdown", async () => {
    // A consumer that stopped reading: the drain cannot finish, the shutdown frame is not sent,
    // and the exit is not waited for again; SIGTERM follows the drain's timeout.
    const pidFile = join(sb.scratch, "deaf.pid");
    writeExtension(sb.globalDir, "deaf", { name: "deaf", pidFile, noRead: true, legacy: true, ignoreShutdown: true,
      register: [{ type: "subscribe", events: ["user_prompt_submit"] }] });
    const grace = 300;
    t = await startHost(sb, { timeouts: { shutdownGrace: grace, write: 60_000 } });
    t.bus.lifecycle({ type: "user_prompt_submit", text: "q".repeat(1024 * 1024) }); // fills the pipe
    const started = Date.now();
    await t.host.shutdown();
    expect(Date.now() - started).toBeGreaterThanOrEqual(grace - 50);
    expect(processRunning(pidOf(pidFile))).toBe(false);
    const log = readFileSync(extensionLogPath(sb.paths, "deaf"), "utf8").split("\n");
    const drained = log.findIndex((l) => l.includes(`did not drain within the ${grace} ms shutdown grace`));
    const sigterms = log.flatMap((l, i) => (l.includes("sending SIGTERM") ? [i] : []));
    expect(drained).toBeGreaterThanOrEqual(0);
    expect(sigterms).toHaveLength(1);
    expect(sigterms[0]).toBeGreaterThan(drained);
  });

  it("a grandchild forked by an extension is gone after shutdown, even when the extension exits cleanly", async () => {
    const grandchild = join(sb.scratch, "grandchild.pid");
    writeExtension(sb.globalDir, "forker", { name: "forker", forkGrandchild: grandchild });
    t = await startHost(sb);
    const pid = await waitFor(() => { try { return pidOf(grandchild); } catch { return 0; } }, "grandchild pid");
    expect(processRunning(pid)).toBe(true);
    await t.host.shutdown();
    expect(processRunning(pid)).toBe(false);
  });

  it.each([["process.exit", "process.exit(0);"], ["an unhandled SIGTERM", 'process.kill(process.pid, "SIGTERM");']])(
    "nothing outlives a host process that ends by %s without a graceful shutdown", async (_how, ending) => {
    const extPid = join(sb.scratch, "ext.pid");
    const grandchild = join(sb.scratch, "grandchild.pid");
    writeExtension(sb.globalDir, "orphan-candidate", { name: "orphan-candidate", pidFile: extPid, forkGrandchild: grandchild,
      ignoreShutdown: true, ignoreTerm: true });
    const script = join(sb.scratch, "host.ts");
    writeFileSync(script, `
      import { EventBus } from ${JSON.stringify(join(import.meta.dirname, "../../lib/agent/event-bus.ts"))};
      import { ExtensionHost } from ${JSON.stringify(join(import.meta.dirname, "../../lib/extensions/host/host.ts"))};
      import { pathsUnder } from ${JSON.stringify(join(import.meta.dirname, "../../lib/paths.ts"))};
      import { extensionDrivers } from ${JSON.stringify(join(import.meta.dirname, "../../lib/extensions/runtime/drivers.ts"))};
      const host = await ExtensionHost.start({ drivers: extensionDrivers, cwd: ${JSON.stringify(sb.cwd)}, paths: pathsUnder(${JSON.stringify(sb.paths.home)}),
        agent: { bus: new EventBus({ id: "s", cwd: "/" }), info: () => ({ provider: "p", model: "m" }) }, interactive: false });
      console.log(host.reports()[0].status);
      ${ending}
      setTimeout(() => {}, 10_000);
    `);
    const bun = join(import.meta.dirname, "../../node_modules/.bin/bun");
    const run = spawnSync(bun, [script], { encoding: "utf8" });
    expect(run.stdout.trim()).toBe("ok");
    const pids = [pidOf(extPid), pidOf(grandchild)];
    await waitFor(() => pids.every((p) => !processRunning(p)), "extension and grandchild to be gone", 2000);
  });
});

describe("Wire format: framing and limits", () => {
  it("garbage stdout lines are ignored and logged; the extension keeps working", async () => {
    writeExtension(sb.globalDir, "messy", {
      name: "messy", register: [command("mess")],
      on: { command_invoked: `ctx.raw("this is not json\\n[1,2,3]\\n{\\"type\\":\\"bogus\\"}\\n{\\"type\\":\\"notify\\"}\\n\\n");
        ctx.send({type:"command_response",id:msg.id,action:"display",display:"still fine"})` },
    });
    t = await startHost(sb);
    expect(await t.host.invokeCommand("mess", "")).toMatchObject({ display: "still fine" });
    expect(await t.host.invokeCommand("MESS", "")).toMatchObject({ display: "still fine" });
    const log = readFileSync(extensionLogPath(sb.paths, "messy"), "utf8");
    expect(log).toMatch(/invalid JSON.*this is not json/);
    expect(log).toMatch(/a frame must be a JSON object/);
    expect(log).toMatch(/unknown frame type "bogus"/);
    expect(log).toMatch(/notify: message/);
    expect(t.host.reports()[0]!.warnings.join()).toMatch(/invalid stdout lines/);
    expect(t.of("ext_error")).toEqual([]);
  });

  it("a 5 MiB frame disconnects that extension; the host and other extensions carry on", async () => {
    writeExtension(sb.globalDir, "huge", {
      name: "huge", register: [command("huge")],
      on: { command_invoked: `ctx.send({type:"notify",message:"x".repeat(5*1024*1024)})` },
    });
    writeExtension(sb.globalDir, "small", { name: "small", register: [command("small")],
      on: { command_invoked: `ctx.send({type:"command_response",id:msg.id,action:"noop"})` } });
    t = await startHost(sb);
    expect(await t.host.invokeCommand("huge", "")).toMatchObject({ error: expect.stringMatching(/limit is 4194304/) });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    expect(t.of("ext_error")[0]).toMatchObject({ extension: "huge", message: expect.stringMatching(/disconnected: sent a frame of at least \d+ bytes/) });
    expect(t.of("ext_notify")).toEqual([]);
    expect(t.host.commands().map((c) => c.name)).toEqual(["small"]);
    expect(await t.host.invokeCommand("small", "")).toMatchObject({ action: "noop" });
  });

  it("a 100 000-frame notify flood arrives complete and in order", async () => {
    writeExtension(sb.globalDir, "flood", {
      name: "flood", register: [command("flood")],
      on: { command_invoked: `let s = ""; for (let i = 0; i < 100000; i++) s += JSON.stringify({type:"notify",level:"info",message:"n"+i}) + "\\n";
        ctx.raw(s); ctx.send({type:"command_response",id:msg.id,action:"noop"})` },
    });
    t = await startHost(sb);
    expect(await t.host.invokeCommand("flood", "")).toMatchObject({ action: "noop" });
    const notes = t.of("ext_notify");
    expect(notes).toHaveLength(100_000);
    expect(notes.every((n, i) => n.message === `n${i}` && n.extension === "flood")).toBe(true);
    // About a second when idle; on a loaded machine the 100 000 frames take longer than the
    // suite's 30 s default, which this rule is not about (the host's command deadline is 60 s).
  }, 90_000);

  it("a slow consumer that overflows its outbound queue is disconnected; the host is fine", async () => {
    const pidFile = join(sb.scratch, "slow.pid");
    writeExtension(sb.globalDir, "slow", { name: "slow", pidFile, noRead: true, legacy: true,
      register: [{ type: "subscribe", events: ["user_prompt_submit"] }] });
    writeExtension(sb.globalDir, "fast", { name: "fast", register: [command("ping")],
      on: { command_invoked: `ctx.send({type:"command_response",id:msg.id,action:"display",display:"pong"})` } });
    t = await startHost(sb, { timeouts: { write: 60_000 } });
    // 50 KiB each: the pipe takes about one, then 256 queue up, and the next one overflows.
    const text = "y".repeat(50 * 1024);
    for (let i = 0; i < 400; i++) t.bus.lifecycle({ type: "user_prompt_submit", text });
    const error = await waitFor(() => t!.of("ext_error")[0], "ext_error");
    expect(error).toMatchObject({ extension: "slow", message: expect.stringMatching(/outbound queue overflow/) });
    await waitFor(() => !processRunning(pidOf(pidFile)), "the slow extension to be stopped");
    expect(await t.host.invokeCommand("ping", "")).toMatchObject({ display: "pong" });
  });

  it("a write blocked longer than the write timeout disconnects the extension", async () => {
    writeExtension(sb.globalDir, "stuck", { name: "stuck", noRead: true, legacy: true,
      register: [{ type: "subscribe", events: ["user_prompt_submit"] }] });
    t = await startHost(sb, { timeouts: { write: 200 } });
    t.bus.lifecycle({ type: "user_prompt_submit", text: "z".repeat(1024 * 1024) });
    const error = await waitFor(() => t!.of("ext_error")[0], "ext_error");
    expect(error.message).toMatch(/blocked for 200 ms/);
  });
});

/** The sh fixture that closes its stdout and keeps running, in `mode`, writing its pid to `pidFile`. */
function writeShCloser(sb: Sandbox, mode: "before-hello" | "on-command", pidFile: string): void {
  const dir = join(sb.globalDir, "sh-stdout-closer");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "sh-stdout-closer", version: "0.1.0",
    exec: join(FIXTURES, "sh-stdout-closer", "ext.sh"), args: [mode, pidFile], language: "sh" }));
}

const CLOSE_AND_STAY = "ctx.fs.closeSync(1); ctx.later(30000, () => {});";
const STDOUT_CLOSED = /closed its stdout but kept running; stopping it/;

describe("Supervision: an extension that closes its stdout but keeps running", () => {
  // Timeouts far beyond the test's own: an answer must come from the failure, not a deadline.
  const SLOW = { command: 60_000, hello: 60_000 };

  it.each([
    ["node", "node-stdout-closer", (sb: Sandbox, pidFile: string) => writeExtension(sb.globalDir, "node-stdout-closer",
      { name: "node-stdout-closer", pidFile, register: [command("close-stdout")], on: { command_invoked: CLOSE_AND_STAY } })],
    ["sh", "sh-stdout-closer", (sb: Sandbox, pidFile: string) => writeShCloser(sb, "on-command", pidFile)],
  ])("after ready (%s): the pending command fails at once, ext_error names the log, the process is stopped", async (_lang, name, write) => {
    const pidFile = join(sb.scratch, "closer.pid");
    write(sb, pidFile);
    t = await startHost(sb, { timeouts: SLOW });
    expect(t.host.reports()[0]).toMatchObject({ name, status: "ok" });
    const pid = pidOf(pidFile);
    const reply = await t.host.invokeCommand("close-stdout", "");
    expect(reply).toEqual({ error: expect.stringMatching(STDOUT_CLOSED) });
    expect(t.of("ext_error")).toEqual([{ type: "ext_error", extension: name,
      message: expect.stringMatching(new RegExp(`extension "${name}" stopped: ${STDOUT_CLOSED.source}`)),
      log_path: extensionLogPath(sb.paths, name) }]);
    expect(t.host.reports()[0]).toMatchObject({ status: "error" });
    expect(t.host.commands()).toEqual([]);
    await waitFor(() => !processRunning(pid), "the extension to be stopped");
    expect(readFileSync(extensionLogPath(sb.paths, name), "utf8")).toMatch(/\[zot\] error: closed its stdout but kept running/);
    await t.host.shutdown();
    expect(t.of("ext_error")).toHaveLength(1);
  });

  it.each([
    ["node", "node-stdout-closer", (sb: Sandbox, pidFile: string) => writeExtension(sb.globalDir, "node-stdout-closer",
      { name: "node-stdout-closer", pidFile, noHello: true, start: CLOSE_AND_STAY })],
    ["sh", "sh-stdout-closer", (sb: Sandbox, pidFile: string) => writeShCloser(sb, "before-hello", pidFile)],
  ])("before hello (%s): the handshake fails with that message and the process is stopped", async (_lang, name, write) => {
    const pidFile = join(sb.scratch, "closer.pid");
    write(sb, pidFile);
    t = await startHost(sb, { timeouts: SLOW });
    const report = t.host.reports()[0]!;
    expect(report).toMatchObject({ name, status: "error" });
    expect(report.errors).toEqual([expect.stringMatching(new RegExp(`extension "${name}" failed to start: ${STDOUT_CLOSED.source}`))]);
    expect(t.of("ext_error")).toEqual([expect.objectContaining({ extension: name, log_path: extensionLogPath(sb.paths, name) })]);
    await waitFor(() => { try { return !processRunning(pidOf(pidFile)); } catch { return false; } }, "the extension to be stopped");
  });

  it("a crash with a command pending is still reported as a crash, once", async () => {
    writeExtension(sb.globalDir, "crasher", { name: "crasher", register: [command("crash")],
      on: { command_invoked: "ctx.exit(5)" } });
    t = await startHost(sb, { timeouts: SLOW });
    expect(await t.host.invokeCommand("crash", "")).toEqual({ error: expect.stringMatching(/exited with status 5( \(its stderr ends: [^)]*\))? unexpectedly/) });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    // Longer than the stdout linger, so a late spurious report would have arrived.
    await new Promise((r) => setTimeout(r, 400));
    expect(t.of("ext_error")).toEqual([expect.objectContaining({ extension: "crasher",
      message: expect.stringMatching(/stopped: exited with status 5( \(its stderr ends: [^)]*\))? unexpectedly/) })]);
    expect(readFileSync(extensionLogPath(sb.paths, "crasher"), "utf8")).not.toMatch(STDOUT_CLOSED);
  });

  it("a healthy extension that closes stdout as it exits on shutdown reports nothing", async () => {
    writeExtension(sb.globalDir, "healthy", { name: "healthy", register: [command("hi")] });
    writeShCloser(sb, "on-command", join(sb.scratch, "sh.pid")); // exits on shutdown without answering
    t = await startHost(sb);
    await t.host.shutdown();
    await new Promise((r) => setTimeout(r, 400));
    expect(t.of("ext_error")).toEqual([]);
    expect(t.host.reports().map((r) => r.errors)).toEqual([[], []]);
  });
});
