import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, FIXTURES, readRecord, sandbox, startHost, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

/** Answers every command by displaying "<extension>:<name>:<args>". */
const echo = (ext: string) => `ctx.send({type:"command_response",id:msg.id,action:"display",display:${JSON.stringify(ext)}+":"+msg.name+":"+msg.args})`;

describe("register_command / command_invoked / command_response", () => {
  it("names match case-insensitively and command_invoked carries the registered spelling", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "w", { name: "w", record, register: [command("Weather"), command("weather")], on: { command_invoked: echo("w") } });
    t = await startHost(sb);
    expect(t.host.commands()).toEqual([{ name: "Weather", description: "Weather command", extension: "w" }]);
    expect(await t.host.invokeCommand("/WEATHER", "  berlin  ")).toMatchObject({ display: "w:Weather:berlin" });
    expect(readRecord(record).find((f) => f.type === "command_invoked")).toMatchObject({ name: "Weather", args: "berlin" });
    expect(t.host.reports()[0]!.conflicts).toEqual([expect.stringMatching(/\/weather duplicates its own \/Weather/)]);
  });

  it("built-in commands win, and the shadowing is logged to the extension's log", async () => {
    writeExtension(sb.globalDir, "b", { name: "b", register: [command("Help"), command("mine")], on: { command_invoked: echo("b") } });
    t = await startHost(sb, { builtinCommands: ["help", "model"] });
    expect(t.host.commands().map((c) => c.name)).toEqual(["mine"]);
    expect(await t.host.invokeCommand("help", "")).toBeUndefined();
    expect(readFileSync(extensionLogPath(sb.paths, "b"), "utf8")).toMatch(/command \/Help is shadowed by the built-in \/help/);
  });

  it("the first registration in load order wins; the shadowed extension's log says so", async () => {
    const explicit = writeExtension(sb.scratch, "first", { name: "first", register: [command("dup")], on: { command_invoked: echo("first") } });
    writeExtension(sb.projectDir, "second", { name: "second", register: [command("DUP"), command("own")], on: { command_invoked: echo("second") } });
    t = await startHost(sb, { explicit: [explicit] });
    expect(await t.host.invokeCommand("dup", "")).toMatchObject({ display: "first:dup:" });
    expect(await t.host.invokeCommand("own", "")).toMatchObject({ display: "second:own:" });
    expect(readFileSync(extensionLogPath(sb.paths, "second"), "utf8")).toMatch(/command \/DUP is shadowed by extension "first"/);
    const [a, b] = t.host.reports();
    expect(a!.conflicts).toEqual([expect.stringMatching(/\/dup shadows the one of extension "second"/)]);
    expect(b!.conflicts).toEqual([expect.stringMatching(/shadowed by extension "first"/)]);
  });

  it("an unknown command is undefined (the caller reports it)", async () => {
    t = await startHost(sb);
    expect(await t.host.invokeCommand("nothing", "")).toBeUndefined();
  });

  it("every action and error come back to the caller; open_panel is opened by the host", async () => {
    const responses: Record<string, Record<string, unknown>> = {
      p: { action: "prompt", prompt: "Show the weather." },
      tp: { action: "tool_prompt", prompt: "and push", tool_name: "skill", tool_args: { name: "developer:commit" } },
      i: { action: "insert", insert: "inserted text" },
      d: { action: "display", display: "shown" },
      o: { action: "open_panel", open_panel: { id: "todos-main", title: "Todos", lines: ["□ a", "✓ b"], footer: "esc close" } },
      n: { action: "noop" },
      e: { action: "display", display: "partial", error: "something failed" },
    };
    writeExtension(sb.globalDir, "acts", {
      name: "acts", register: Object.keys(responses).map((k) => command(k)),
      on: { command_invoked: `const r = ${JSON.stringify(responses)}[msg.name]; ctx.send({type:"command_response",id:msg.id,...r})` },
    });
    t = await startHost(sb);
    for (const [name, response] of Object.entries(responses)) {
      expect(await t.host.invokeCommand(name, "")).toEqual({ type: "command_response", id: expect.any(String), ...response });
    }
    expect(t.of("ext_panel_open")).toEqual([{ type: "ext_panel_open", extension: "acts", panel_id: "todos-main", title: "Todos",
      lines: ["□ a", "✓ b"], footer: "esc close" }]);
  });

  it("an invalid command_response and a missing one become errors, not hangs", async () => {
    writeExtension(sb.globalDir, "bad", {
      name: "bad", register: [command("unknown_action"), command("silent")],
      on: { command_invoked: `if (msg.name === "unknown_action") ctx.send({type:"command_response",id:msg.id,action:"dance"})` },
    });
    t = await startHost(sb, { timeouts: { command: 300 } });
    expect(await t.host.invokeCommand("unknown_action", "")).toEqual({ error: expect.stringMatching(/action must be one of prompt, tool_prompt/) });
    expect(await t.host.invokeCommand("silent", "")).toEqual({ error: expect.stringMatching(/did not answer within 300 ms/) });
  });
});

describe("notify / clear_notes / submit", () => {
  it("notify becomes ext_notify with its level (info by default); clear_notes names only its extension", async () => {
    writeExtension(sb.globalDir, "noisy", {
      name: "noisy", register: [command("go")],
      on: { command_invoked: `for (const level of ["info","success","warn","error"]) ctx.send({type:"notify",level,message:level+" note"});
        ctx.send({type:"notify",message:"plain"}); ctx.send({type:"clear_notes"}); ctx.send({type:"command_response",id:msg.id,action:"noop"})` },
    });
    t = await startHost(sb);
    await t.host.invokeCommand("go", "");
    expect(t.of("ext_notify").map((n) => [n.extension, n.level, n.message])).toEqual([
      ["noisy", "info", "info note"], ["noisy", "success", "success note"], ["noisy", "warn", "warn note"],
      ["noisy", "error", "error note"], ["noisy", "info", "plain"]]);
    expect(t.of("ext_clear_notes")).toEqual([{ type: "ext_clear_notes", extension: "noisy" }]);
  });

  it("submit reaches an interactive host; blank text is ignored", async () => {
    writeExtension(sb.globalDir, "sub", { name: "sub", register: [command("s")],
      on: { command_invoked: `ctx.send({type:"submit",text:"   "}); ctx.send({type:"submit",text:"Summarize."}); ctx.send({type:"command_response",id:msg.id,action:"noop"})` } });
    const submitted: string[][] = [];
    t = await startHost(sb, { onSubmit: (ext, text) => submitted.push([ext, text]) });
    await t.host.invokeCommand("s", "");
    expect(submitted).toEqual([["sub", "Summarize."]]);
  });

  it("submit is ignored (and logged) in hosts without an interactive prompt queue", async () => {
    writeExtension(sb.globalDir, "sub", { name: "sub", register: [command("s")],
      on: { command_invoked: `ctx.send({type:"submit",text:"Summarize."}); ctx.send({type:"command_response",id:msg.id,action:"noop"})` } });
    const submitted: string[] = [];
    t = await startHost(sb, { interactive: false, onSubmit: (_e, text) => submitted.push(text) });
    await t.host.invokeCommand("s", "");
    expect(submitted).toEqual([]);
    expect(readFileSync(extensionLogPath(sb.paths, "sub"), "utf8")).toMatch(/submit ignored/);
  });
});

describe("Quick start and other languages", () => {
  it("the spec's Python quick-start, copied verbatim, works", async () => {
    cpSync(join(FIXTURES, "hello-py"), join(sb.globalDir, "hello-py"), { recursive: true });
    t = await startHost(sb);
    expect(t.host.reports()[0]).toMatchObject({ name: "hello-py", status: "ok", ready: "ready", commands: ["hellopy"], language: "python" });
    expect(await t.host.invokeCommand("hellopy", "")).toMatchObject({ action: "prompt", prompt: "Greet me very briefly in one sentence." });
    await t.host.shutdown();
    expect(readFileSync(extensionLogPath(sb.paths, "hello-py"), "utf8")).not.toMatch(/did not exit/);
  });

  it("a POSIX sh extension pushes and clears notes", async () => {
    t = await startHost(sb, { explicit: [join(FIXTURES, "sh-notes")] });
    expect(await t.host.invokeCommand("shnote", "")).toMatchObject({ action: "noop" });
    await waitFor(() => t!.of("ext_notify").length, "note");
    expect(t.of("ext_notify")).toEqual([{ type: "ext_notify", extension: "sh-notes", level: "success", message: "note from sh" }]);
    await t.host.invokeCommand("shclear", "");
    await waitFor(() => t!.of("ext_clear_notes").length, "clear");
  });
});
