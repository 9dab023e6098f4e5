import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, processRunning, readRecord, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";
import { hostPidIn } from "../support/host-pid.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

/**
 * A todo-style panel extension: /<name> opens panel "<name>-main"; each key re-renders with the
 * key as a line; "x" closes the panel from the extension; /<name>-tool-style pushes a render for
 * a panel that is not open yet.
 */
function panelExtension(name: string, extra: Record<string, string> = {}) {
  const record = join(sb.scratch, `${name}.jsonl`);
  writeExtension(sb.globalDir, name, {
    name, record, capabilities: ["commands", "panels"], register: [command(name), command(`${name}-render`)],
    on: {
      command_invoked: `if (msg.name.endsWith("-render")) { ctx.send({type:"panel_render",panel_id:"${name}-side",title:"Side",lines:["opened by render"]}); return ctx.send({type:"command_response",id:msg.id,action:"noop"}); }
        ctx.send({type:"command_response",id:msg.id,action:"open_panel",open_panel:{id:"${name}-main",title:"${name}",lines:["□ one"],footer:"esc close"}})`,
      panel_key: `if (msg.text === "x") return ctx.send({type:"panel_close",panel_id:msg.panel_id});
        ctx.send({type:"panel_render",panel_id:msg.panel_id,lines:["key " + msg.key + (msg.text ? " " + msg.text : "")]})`,
      ...extra,
    },
  });
  return () => readRecord(record);
}

describe("Panels", () => {
  it("open_panel opens a panel; keys go to the owning extension; renders update it", async () => {
    const todos = panelExtension("todos");
    const notes = panelExtension("notes");
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    await t.host.invokeCommand("notes", "");
    expect(t.host.openPanels().map((p) => p.panelId)).toEqual(["todos-main", "notes-main"]);
    t.host.panelKey("todos-main", "down");
    t.host.panelKey("notes-main", "rune", "q");
    await waitFor(() => t!.of("ext_panel_render").length === 2, "two renders");
    expect(todos().filter((f) => f.type === "panel_key")).toEqual([{ type: "panel_key", panel_id: "todos-main", key: "down" }]);
    expect(notes().filter((f) => f.type === "panel_key")).toEqual([{ type: "panel_key", panel_id: "notes-main", key: "rune", text: "q" }]);
    expect(t.host.openPanels().find((p) => p.panelId === "todos-main")).toEqual({ extension: "todos", panelId: "todos-main",
      title: "todos", lines: ["key down"], footer: "esc close" });
    expect(t.of("ext_panel_render").map((e) => [e.extension, e.panel_id, e.lines])).toEqual(
      expect.arrayContaining([["todos", "todos-main", ["key down"]], ["notes", "notes-main", ["key rune q"]]]));
  });

  it("the user closing a panel sends panel_close to its extension", async () => {
    const todos = panelExtension("todos");
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    t.host.closePanel("todos-main");
    expect(t.host.openPanels()).toEqual([]);
    expect(t.of("ext_panel_close")).toEqual([{ type: "ext_panel_close", extension: "todos", panel_id: "todos-main" }]);
    await waitFor(() => todos().some((f) => f.type === "panel_close"), "panel_close to the extension");
  });

  it("the extension can close its panel; a render for a panel that is not open, outside an interactive tool call, is ignored and logged", async () => {
    panelExtension("todos");
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    t.host.panelKey("todos-main", "rune", "x");
    await waitFor(() => t!.of("ext_panel_close").length, "close");
    expect(t.host.openPanels()).toEqual([]);
    await t.host.invokeCommand("todos-render", "");
    await waitFor(() => readFileSync(extensionLogPath(sb.paths, "todos"), "utf8").includes('panel_render for panel "todos-side", which is not open, ignored'),
      "the ignored render in the log");
    expect(t.host.openPanels()).toEqual([]);
    expect(t.of("ext_panel_open")).toHaveLength(1);
  });

  it("a render for a panel that is not open opens it while that extension has an interactive tool call in flight", async () => {
    writeExtension(sb.globalDir, "picker", { name: "picker", capabilities: ["tools", "panels"], register: [tool("pick", { interactive: true }), tool("plain")],
      on: { tool_call: `ctx.send({type:"panel_render",panel_id:msg.name + "-panel",title:"Pick",lines:["a","b"]});
        ctx.later(300, () => ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"done"}]}))` } });
    t = await startHost(sb);
    const [pick, plain] = t.host.tools();
    await plain!.execute({}, { cwd: sb.cwd, signal: new AbortController().signal });
    expect(t.host.openPanels()).toEqual([]);
    await pick!.execute({}, { cwd: sb.cwd, signal: new AbortController().signal });
    expect(t.of("ext_panel_open")).toEqual([{ type: "ext_panel_open", extension: "picker", panel_id: "pick-panel", title: "Pick", lines: ["a", "b"] }]);
  });

  it("an extension cannot render or close another extension's panel", async () => {
    panelExtension("todos");
    panelExtension("intruder", {
      command_invoked: `ctx.send({type:"panel_render",panel_id:"todos-main",lines:["hijacked"]}); ctx.send({type:"panel_close",panel_id:"todos-main"});
        ctx.send({type:"command_response",id:msg.id,action:"noop"})`,
    });
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    await t.host.invokeCommand("intruder", "");
    t.host.panelKey("todos-main", "up");
    await waitFor(() => t!.of("ext_panel_render").length, "todos' own render");
    expect(t.host.openPanels()).toEqual([{ extension: "todos", panelId: "todos-main", title: "todos", lines: ["key up"], footer: "esc close" }]);
    expect(t.of("ext_panel_render").map((e) => e.extension)).toEqual(["todos"]);
  });

  it("a crash closes that extension's panels", async () => {
    panelExtension("todos", { panel_key: "process.exit(1)" });
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    t.host.panelKey("todos-main", "enter");
    await waitFor(() => t!.of("ext_panel_close").length, "panel closed after the crash");
    expect(t.host.openPanels()).toEqual([]);
    expect(t.of("ext_error")).toHaveLength(1);
  });
});

describe("Hot reload", () => {
  it("tears down, re-reads manifests (explicit paths included), rebuilds tools, and reports errors", async () => {
    const pidA = join(sb.scratch, "a.pid");
    const explicit = writeExtension(sb.scratch, "explicit", { name: "explicit", register: [tool("explicit_tool")] });
    writeExtension(sb.globalDir, "a", { name: "a", pidFile: pidA, register: [tool("old_tool")] });
    t = await startHost(sb, { explicit: [explicit] });
    expect(t.host.tools().map((x) => x.name)).toEqual(["explicit_tool", "old_tool"]);
    const firstPid = hostPidIn(pidA);

    writeExtension(sb.globalDir, "a", { name: "a", pidFile: pidA, register: [tool("new_tool")] });
    const broken = join(sb.globalDir, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "extension.json"), "{");
    await t.host.reload();

    expect(processRunning(firstPid)).toBe(false);
    expect(t.host.tools().map((x) => x.name)).toEqual(["explicit_tool", "new_tool"]);
    expect(t.of("ext_error")).toEqual([{ type: "ext_error", extension: "broken", message: expect.stringContaining(broken) }]);
    expect(t.host.reports().map((r) => [r.name, r.status])).toEqual([["explicit", "ok"], ["a", "ok"], ["broken", "error"]]);
  });

  it("does not close the session or replay earlier events; sequence numbers continue", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "obs", { name: "obs", record, register: [{ type: "subscribe", events: ["session_start", "session_end", "turn_start"] }] });
    t = await startHost(sb);
    t.bus.lifecycle({ type: "session_start" });
    t.bus.lifecycle({ type: "turn_start", step: 1 });
    await waitFor(() => readRecord(record).filter((f) => f.type === "event").length === 2, "first events");
    await t.host.reload();
    t.bus.lifecycle({ type: "turn_start", step: 2 });
    await waitFor(() => readRecord(record).filter((f) => f.type === "event").length === 3, "event after reload");
    const events = readRecord(record).filter((f) => f.type === "event").map((f) => [f.event, f.sequence]);
    expect(events).toEqual([["session_start", 1], ["turn_start", 2], ["turn_start", 3]]);
    const types = readRecord(record).map((f) => f.type);
    expect(types.filter((x) => x === "hello_ack")).toHaveLength(2);
    expect(types.filter((x) => x === "shutdown")).toHaveLength(1);
  });

  it("open panels are closed by a reload", async () => {
    panelExtension("todos");
    t = await startHost(sb);
    await t.host.invokeCommand("todos", "");
    await t.host.reload();
    expect(t.host.openPanels()).toEqual([]);
    expect(t.of("ext_panel_close")).toEqual([{ type: "ext_panel_close", extension: "todos", panel_id: "todos-main" }]);
  });
});
