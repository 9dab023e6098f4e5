import { spawn } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_COMMANDS } from "../../lib/app/builtin-commands.ts";
import { diagnoseExtensions } from "../../lib/extensions/host/doctor.ts";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, FAST, sandbox, tool, trustThisProject, writeExtension, type Sandbox } from "./helpers.ts";
import { extensionDrivers } from "../../lib/extensions/runtime/drivers.ts";

const ZOT = join(import.meta.dirname, "..", "..", "dist", "zot.mjs");

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

function doctor(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ZOT, "ext", "doctor", ...args], {
      cwd: sb.cwd, env: { ...process.env, ZOT_HOME: sb.paths.home, ZOT_PROVIDER: "", ZOT_MODEL: "", NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** healthy, disabled, crashing, never-ready, and two extensions fighting over /deploy (one in the trusted project). */
async function population() {
  // A healthy interceptor answers doctor's probe (a silent one would cost the 5 s deadline).
  writeExtension(sb.globalDir, "healthy", { name: "healthy", register: [command("hello"), tool("weather"), tool("later", { deferred: true }),
    { type: "subscribe", events: ["turn_start"], intercept: ["tool_call"] }],
  on: { event_intercept: `ctx.send({type:"event_intercept_response",id:msg.id})` } });
  writeExtension(sb.globalDir, "disabled", { name: "disabled" }, { enabled: false });
  writeExtension(sb.globalDir, "crashing", { name: "crashing", exitBeforeHello: 2 }, { language: "javascript" });
  writeExtension(sb.globalDir, "never-ready", { name: "never-ready", noReady: true, register: [command("slowpoke")] });
  writeExtension(sb.projectDir, "deploy-a", { name: "deploy-a", register: [command("deploy")] });
  writeExtension(sb.globalDir, "deploy-b", { name: "deploy-b", register: [command("Deploy"), tool("read")] });
  await trustThisProject(sb);
}

describe("zot ext doctor", () => {
  it("reports exactly the conflicts startup produces, built-in commands included, and disabled bundles as disabled", async () => {
    writeExtension(sb.globalDir, "helper", { name: "helper", register: [command("help"), command("mine")] });
    mkdirSync(join(sb.globalDir, "off-skills", "skills"), { recursive: true });
    writeFileSync(join(sb.globalDir, "off-skills", "extension.json"), JSON.stringify({ name: "off-skills", skills: ["skills"], enabled: false }));
    const { stdout } = await doctor(["--json"]);
    const byName = Object.fromEntries((JSON.parse(stdout).extensions as Array<Record<string, any>>).map((e) => [e.name, e]));
    expect(byName.helper).toMatchObject({ commands: ["help", "mine"], conflicts: ["command /help is shadowed by the built-in /help"] });
    expect(byName["off-skills"]).toMatchObject({ kind: "skills", status: "disabled" });
  });

  it("--json reports each extension in load order and exits 1 when one failed", async () => {
    await population();
    const { code, stdout } = await doctor(["--json"]);
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { ok: boolean; extensions: Array<Record<string, unknown>> };
    expect(result.ok).toBe(false);
    const byName = Object.fromEntries(result.extensions.map((e) => [e.name, e]));
    expect(result.extensions.map((e) => e.name)).toEqual(["deploy-a", "crashing", "deploy-b", "disabled", "healthy", "never-ready"]);
    expect(byName.healthy).toMatchObject({
      path: join(sb.globalDir, "healthy"), scope: "global", status: "ok", ready: "ready", startup_ms: expect.any(Number),
      commands: ["hello"], tools: [{ name: "weather", deferred: false, interactive: false }, { name: "later", deferred: true, interactive: false }],
      subscriptions: { events: ["turn_start"], intercept: ["tool_call"] }, conflicts: [], warnings: [], errors: [],
      log_path: extensionLogPath(sb.paths, "healthy"),
    });
    expect(byName.disabled).toMatchObject({ status: "disabled", ready: null, errors: [] });
    expect(byName.crashing).toMatchObject({ status: "error", ready: null, errors: [expect.stringMatching(/exited with status 2 \(its stderr ends: exiting before hello on purpose\) before sending hello/)] });
    expect((byName.crashing!.errors as string[])[0]).toContain(`log: ${extensionLogPath(sb.paths, "crashing")}`);
    expect(byName["never-ready"]).toMatchObject({ status: "ok", ready: "auto", commands: ["slowpoke"] });
    expect(byName["deploy-a"]).toMatchObject({ scope: "project", status: "ok", conflicts: [expect.stringMatching(/\/deploy shadows the one of extension "deploy-b"/)] });
    expect(byName["deploy-b"]).toMatchObject({ status: "ok", conflicts: [
      expect.stringMatching(/\/Deploy is shadowed by extension "deploy-a"/), "tool read is shadowed by the built-in tool"] });
  });

  it("prints a human report with status, registrations, conflicts, errors and log paths", async () => {
    await population();
    const { code, stdout } = await doctor([]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^6 extensions: 4 ok, 1 error, 1 disabled\n/);
    expect(stdout).toMatch(/✓ healthy 1\.0\.0 {2}\[global\] {2}ready in \d+ ms/);
    expect(stdout).toMatch(/\n {4}commands: +\/hello\n/);
    expect(stdout).toMatch(/\n {4}tools: +weather, later \(deferred\)\n/);
    expect(stdout).toMatch(/\n {4}intercept: +tool_call\n/);
    expect(stdout).toMatch(/- disabled 1\.0\.0 {2}\[global\] {2}disabled/);
    expect(stdout).toMatch(/✗ crashing 1\.0\.0 {2}\[global\] {2}error\n/);
    // Multi-line diagnostics keep their line breaks, indented under the label.
    expect(stdout).toMatch(/\n {4}error: +extension "crashing" failed to start: exited with status 2 \(its stderr ends: exiting before hello on purpose\) before sending hello\n {17}folder: /);
    expect(stdout).toMatch(/✓ never-ready 1\.0\.0 {2}\[global\] {2}auto-ready in \d+ ms \(never sent ready\)/);
    expect(stdout).toMatch(/\n {4}conflict: +command \/Deploy is shadowed by extension "deploy-a"\n/);
    expect(stdout).toContain(`    log:       ${extensionLogPath(sb.paths, "healthy")}`);
  });

  it("-e loads extra folders first; all healthy exits 0", async () => {
    const a = writeExtension(sb.scratch, "a", { name: "a", register: [command("a")] });
    const b = writeExtension(sb.scratch, "b", { name: "b", register: [command("b")] });
    writeExtension(sb.globalDir, "a", { name: "a" });
    const { code, stdout } = await doctor(["--json", "-e", a, `--ext=${b}`]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { ok: boolean; extensions: Array<Record<string, unknown>> };
    expect(result.ok).toBe(true);
    expect(result.extensions.map((e) => [e.name, e.scope, e.status])).toEqual([["a", "explicit", "ok"], ["b", "explicit", "ok"], ["a", "global", "shadowed"]]);
  });

  it("a dropped registration is an error (exit 1) while the extension keeps running with the rest", async () => {
    writeExtension(sb.globalDir, "sloppy", { name: "sloppy", register: [tool("bad name!"), tool("fine"), command("two words")] });
    const json = await doctor(["--json"]);
    expect(json.code).toBe(1);
    const [report] = (JSON.parse(json.stdout) as { extensions: Array<Record<string, unknown>> }).extensions;
    expect(report).toMatchObject({ status: "error", running: true, ready: "ready", tools: [{ name: "fine" }], commands: [], errors: [
      expect.stringMatching(/^extension "sloppy": tool "bad name!" was dropped: a tool name must match/),
      expect.stringMatching(/^extension "sloppy": command "two words" was dropped: a command name must not contain spaces/)] });
    const text = await doctor([]);
    expect(text.stdout).toMatch(/✗ sloppy 1\.0\.0 {2}\[global\] {2}ready with errors in \d+ ms\n/);
    expect(text.stdout).toMatch(/\n {4}error: +extension "sloppy": tool "bad name!" was dropped: /);
  });

  it("shows requested against granted permissions, full access, refusals, and each guard's policy and probe latency", async () => {
    const answer = { event_intercept: `ctx.send({type:"event_intercept_response",id:msg.id})` };
    writeExtension(sb.globalDir, "scoped", { name: "scoped", on: answer,
      register: [{ type: "subscribe", events: ["turn_end", "tool_result"], intercept: ["tool_call"] }] },
    { permissions: { tools: ["read"], events: ["turn_end"], intercept: ["tool_call"] }, on_failure: { tool_call: "block" } });
    writeExtension(sb.globalDir, "wide", { name: "wide", on: answer, register: [{ type: "subscribe", intercept: ["turn_start"] }] });
    const json = await doctor(["--json"]);
    expect(json.code).toBe(0);
    const byName = Object.fromEntries((JSON.parse(json.stdout).extensions as Array<Record<string, any>>).map((e) => [e.name, e]));
    expect(byName.scoped).toMatchObject({
      subscriptions: { events: ["turn_end"], intercept: ["tool_call"] },
      permissions: { full_access: false, requested: { tools: ["read"], events: ["turn_end"], intercept: ["tool_call"] },
        granted: { full_access: false, tools: ["read"], events: ["turn_end"], intercept: ["tool_call"], ui: [] },
        refused: { tools: [], events: ["tool_result"], intercept: [], ui: [] } },
      interceptors: [{ event: "tool_call", on_failure: "block", on_failure_from: "manifest", probe: "answered", latency_ms: expect.any(Number) }],
    });
    expect(byName.wide).toMatchObject({
      permissions: { full_access: true, requested: null, granted: { tools: "*", events: "*", intercept: "*", ui: "*" } },
      interceptors: [{ event: "turn_start", on_failure: "allow", on_failure_from: "default", probe: "answered" }],
    });

    const text = (await doctor([])).stdout;
    expect(text).toMatch(/✓ scoped 1\.0\.0 [^\n]*\n(?: {4}.*\n)* {4}access: +declared permissions, granted as requested\n {4}granted: +tools: read\n {15}events: turn_end\n {15}intercept: tool_call\n {15}ui: none\n/);
    expect(text).toMatch(/\n {4}refused: +event tool_result\n/);
    expect(text).toMatch(/\n {4}guard: +tool_call: on_failure block \(manifest\), answered in \d+ ms\n/);
    expect(text).toMatch(/✓ wide 1\.0\.0 [^\n]*\n(?: {4}.*\n)* {4}access: +full access \(no permissions declared\)\n/);
    expect(text).toMatch(/\n {4}guard: +turn_start: on_failure allow \(default\), answered in \d+ ms\n/);
  });

  it("the probe reports a guard that does not answer within the intercept deadline", async () => {
    writeExtension(sb.globalDir, "deaf", { name: "deaf", register: [{ type: "subscribe", intercept: ["tool_call", "turn_start"] }] },
      { on_failure: "block" });
    const result = await diagnoseExtensions({ cwd: sb.cwd, paths: sb.paths, provider: "anthropic", model: "m",
      builtinCommands: BUILTIN_COMMANDS.map((c) => c.name), drivers: extensionDrivers, timeouts: { ...FAST, intercept: 150 } });
    expect(result.extensions[0]!.interceptors).toEqual([
      { event: "tool_call", on_failure: "block", on_failure_from: "manifest", probe: "timed_out", latency_ms: expect.any(Number), rewrote: false, rewrites: 0, timeout_ms: 150, timeout_requested: false },
      { event: "turn_start", on_failure: "block", on_failure_from: "manifest", probe: "timed_out", latency_ms: expect.any(Number), rewrote: false, rewrites: 0, timeout_ms: 150, timeout_requested: false },
    ]);
    expect(result.extensions[0]!.interceptors[0]!.latency_ms).toBeGreaterThanOrEqual(140);
  });

  it("says where it looked when there is nothing, and rejects unknown flags with exit 2", async () => {
    const empty = await doctor([]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("No extensions found.");
    expect(empty.stdout).toContain(sb.globalDir);
    const bad = await doctor(["--frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^zot: unknown option --frobnicate/);
  });
});

describe("zot ext doctor: how each process runs", () => {
  it("shows a sandboxed extension's resolved mounts and network, and a full-access one's PID namespace", async () => {
    const real = realpathSync(sb.root);
    writeExtension(sb.globalDir, "boxed", { name: "boxed" }, { permissions: { fs: { read: ["{project}"] }, network: "none" } });
    writeExtension(sb.globalDir, "open", { name: "open" });
    const text = (await doctor([])).stdout;
    expect(text).toMatch(/✓ boxed [^\n]*\n(?: {4}.*\n)* {4}process: +sandboxed with bubblewrap, in a PID namespace of its own, network none\n {4}mounts ro: +\/usr\n/);
    expect(text).toContain(`${join(real, "project")}\n`);
    expect(text).toMatch(/ {4}mounts rw: +\S*extension-data\/boxed\n/);
    expect(text).toMatch(/✓ open [^\n]*\n(?: {4}.*\n)* {4}process: +full access, in a PID namespace of its own\n/);
    const json = JSON.parse((await doctor(["--json"])).stdout) as { extensions: Array<{ name: string; isolation: Record<string, unknown> }> };
    const byName = Object.fromEntries(json.extensions.map((e) => [e.name, e.isolation]));
    expect(byName.boxed).toMatchObject({ sandbox: "bubblewrap", pid_namespace: true, network: false, read_only: expect.arrayContaining([join(real, "project")]) });
    expect(byName.open).toEqual({ sandbox: null, pid_namespace: true, read_only: null, read_write: null, network: null, hidden: [] });
  });
});
