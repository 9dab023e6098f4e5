// The host enforces declared permissions: call_tool, event subscriptions, interception and UI
// frames outside an extension's grant are refused, with a line in its log. Real subprocesses
// (Node and sh), a real runtime (session + host) for call_tool.
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ZotEvent } from "../../../lib/events/index.ts";
import { createRuntime, type Runtime } from "../../../lib/app/runtime.ts";
import { runSlash } from "../../../lib/app/slash.ts";
import { extensionLogPath } from "../../../lib/paths.ts";
import { command, readRecord, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox } from "../helpers.ts";

let sb: Sandbox;
let rt: Runtime | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  await rt?.close({ abort: true });
  rt = undefined;
  await sb.cleanup();
});

const log = (name: string) => readFileSync(extensionLogPath(sb.paths, name), "utf8");

/** /call <tool> <json args>: sends call_tool and displays the tool_result it gets back. */
function caller(permissions?: Record<string, unknown>) {
  writeExtension(sb.globalDir, "caller", {
    name: "caller", capabilities: ["commands", "call_tool"], register: [command("call")],
    on: {
      command_invoked: `const [name, ...rest] = msg.args.split(" ");
        ctx.state["c-" + msg.id] = msg.id;
        ctx.send({type:"call_tool",id:"c-" + msg.id,name,args:rest.length ? JSON.parse(rest.join(" ")) : {}});`,
      tool_result: `const id = ctx.state[msg.id]; if (id) ctx.send({type:"command_response",id,action:"display",display:JSON.stringify(msg)});`,
    },
  }, permissions ? { permissions } : {});
}

async function runtime(): Promise<{ rt: Runtime; events: ZotEvent[] }> {
  const events: ZotEvent[] = [];
  rt = await createRuntime({ cwd: sb.cwd, apiKey: "test-key", baseUrl: "http://127.0.0.1:9", session: { kind: "none" }, skills: { enabled: false } },
    { env: { ZOT_HOME: sb.paths.home }, frontend: { warn: () => {}, showEvents: (bus) => void bus.subscribe((e) => events.push(e)) } });
  return { rt, events };
}

async function call(r: Runtime, line: string): Promise<Record<string, unknown>> {
  const [name, ...rest] = line.split(" ");
  const reply = await r.host.invokeCommand("call", [name, ...rest].join(" "));
  return JSON.parse((reply as { display: string }).display) as Record<string, unknown>;
}

describe("permissions.tools: call_tool outside the grant", () => {
  it("is refused with is_error and a permission_decision denied by policy; a granted tool runs", async () => {
    caller({ tools: ["read"], fs: { read: ["{project}"] } });
    writeFileSync(join(sb.cwd, "notes.txt"), "granted content\n");
    const { rt: r, events } = await runtime();

    const refused = await call(r, "bash {\"command\":\"echo should-not-run > ran.txt\"}");
    expect(refused).toMatchObject({ type: "tool_result", is_error: true,
      content: [{ type: "text", text: "not permitted: caller may not call bash" }] });
    const decisions = events.filter((e) => e.type === "permission_decision");
    expect(decisions).toEqual([expect.objectContaining({ tool_name: "bash", decision: "denied", source: "policy",
      stage: "pre_execution", reason: "not permitted: caller may not call bash", origin_extension: "caller" })]);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ tool_name: "bash", status: "blocked", executed: false });
    expect(() => readFileSync(join(sb.cwd, "ran.txt"))).toThrow();
    expect(log("caller")).toContain("not permitted: call of tool bash refused: it is not in permissions.tools");

    const granted = await call(r, "read {\"path\":\"notes.txt\"}");
    expect(granted).toMatchObject({ is_error: false });
    expect(JSON.stringify(granted.content)).toContain("granted content");
    expect(r.host.reports()[0]!.permissions).toMatchObject({ full_access: false, refused: { tools: ["bash"] } });
  });

  it("a file tool reaches no further than the caller's fs grants: auth.json, a file outside them and a symlink out are refused", async () => {
    caller({ tools: ["read", "write"], fs: { read: ["{project}/docs"] } });
    writeFileSync(join(sb.paths.home, "auth.json"), '{"anthropic":"sk-ant-secret"}');
    mkdirSync(join(sb.cwd, "docs"), { recursive: true });
    writeFileSync(join(sb.cwd, "docs", "ok.txt"), "inside the grant\n");
    writeFileSync(join(sb.cwd, "outside.txt"), "outside the grant\n");
    symlinkSync(join(sb.paths.home, "auth.json"), join(sb.cwd, "docs", "link.txt"));
    const { rt: r } = await runtime();
    for (const path of [join(sb.paths.home, "auth.json"), "outside.txt", "docs/link.txt", "docs/../outside.txt", "~/.ssh/id_rsa"]) {
      const refused = await call(r, `read ${JSON.stringify({ path })}`);
      expect(refused, path).toMatchObject({ is_error: true });
      expect(JSON.stringify(refused.content), path).toContain("not permitted: caller may not have read touch");
      expect(JSON.stringify(refused.content), path).not.toContain("sk-ant-secret");
    }
    const written = await call(r, `write ${JSON.stringify({ path: "docs/new.txt", content: "x" })}`);
    expect(written).toMatchObject({ is_error: true });
    expect(JSON.stringify(written.content)).toContain("outside what its sandbox may write");
    expect(JSON.stringify(await call(r, `read ${JSON.stringify({ path: "docs/ok.txt" })}`))).toContain("inside the grant");
  });

  it("/ext marks each extension full access or declared", async () => {
    caller({ tools: ["read"] });
    writeExtension(sb.globalDir, "wide", { name: "wide" });
    const { rt: r } = await runtime();
    const out = await runSlash(r, "/ext", { interactive: false });
    const text = (out.result as { text: string }).text;
    expect(text).toMatch(/^ {2}caller +ok +global +declared +\//m);
    expect(text).toMatch(/^ {2}wide +ok +global +full access +\//m);
  });

  it("a manifest without permissions keeps full access: any tool may be called", async () => {
    caller();
    const { rt: r, events } = await runtime();
    const result = await call(r, "bash {\"command\":\"echo full-access\"}");
    expect(result).toMatchObject({ is_error: false });
    expect(JSON.stringify(result.content)).toContain("full-access");
    expect(events.find((e) => e.type === "permission_decision")).toMatchObject({ decision: "approved" });
    expect(r.host.reports()[0]!.permissions).toMatchObject({ full_access: true, requested: null });
  });
});

describe("permissions.events and permissions.intercept", () => {
  it("a subscription outside the grant is not delivered, an intercept outside it is not consulted, each logged", async () => {
    const record = join(sb.scratch, "watcher.jsonl");
    writeExtension(sb.globalDir, "watcher", {
      name: "watcher", record,
      register: [{ type: "subscribe", events: ["turn_start", "turn_end"], intercept: ["tool_call", "turn_start"] }],
      on: { event_intercept: `ctx.send({type:"event_intercept_response",id:msg.id,block:true,reason:"watcher blocks " + msg.event})` },
    }, { permissions: { events: ["turn_end"], intercept: ["turn_start"] } });
    const t = await startHost(sb);

    t.bus.lifecycle({ type: "turn_start", step: 1 });
    t.bus.lifecycle({ type: "turn_end", stop: "end_turn" });
    await waitFor(() => readRecord(record).some((f) => f.event === "turn_end"), "turn_end delivered");
    expect(readRecord(record).filter((f) => f.type === "event").map((f) => f.event)).toEqual(["turn_end"]);

    expect(await t.host.interceptToolCall({ toolId: "c1", toolName: "bash", toolArgs: {} })).toEqual({ block: false, args: {} });
    expect(await t.host.interceptTurnStart(1)).toMatchObject({ block: true, reason: "watcher blocks turn_start" });
    expect(readRecord(record).filter((f) => f.type === "event_intercept").map((f) => f.event)).toEqual(["turn_start"]);

    const text = log("watcher");
    expect(text).toContain('subscribe: event "turn_start" is not in permissions.events; it is not delivered');
    expect(text).toContain('subscribe: intercept "tool_call" is not in permissions.intercept; it is not consulted');
    const [report] = t.host.reports();
    expect(report!.subscriptions).toEqual({ events: ["turn_end"], intercept: ["turn_start"] });
    expect(report!.permissions).toMatchObject({ refused: { events: ["turn_start"], intercept: ["tool_call"] } });
  });
});

describe("permissions.ui", () => {
  it("notify, clear_notes, submit, panel frames and an open_panel response outside the grant are ignored and logged", async () => {
    const submitted: string[] = [];
    writeExtension(sb.globalDir, "noisy", {
      name: "noisy", register: [command("panel"), command("talk")],
      on: { command_invoked: `if (msg.name === "talk") {
          ctx.send({type:"notify",level:"info",message:"hello"}); ctx.send({type:"clear_notes"});
          ctx.send({type:"submit",text:"do it"}); ctx.send({type:"panel_render",panel_id:"p",lines:["x"]});
          ctx.send({type:"panel_close",panel_id:"p"});
          return ctx.send({type:"command_response",id:msg.id,action:"noop"}); }
        ctx.send({type:"command_response",id:msg.id,action:"open_panel",open_panel:{id:"p",title:"P",lines:["a"]}})` },
    }, { permissions: { ui: ["submit"] } });
    const t = await startHost(sb, { onSubmit: (_ext, text) => submitted.push(text) });

    expect(await t.host.invokeCommand("panel", "")).toMatchObject({ action: "noop" });
    expect(t.host.openPanels()).toEqual([]);
    expect(await t.host.invokeCommand("talk", "")).toMatchObject({ action: "noop" });
    await waitFor(() => submitted.length > 0, "the granted submit");
    expect(submitted).toEqual(["do it"]);
    expect(t.of("ext_notify")).toEqual([]);
    expect(t.of("ext_clear_notes")).toEqual([]);
    expect(t.of("ext_panel_open")).toEqual([]);

    const text = log("noisy");
    expect(text).toContain('command /panel: open_panel ignored: "panels" is not in permissions.ui');
    for (const line of ['notify ignored: "notes" is not in permissions.ui', 'clear_notes ignored: "notes" is not in permissions.ui',
      'panel_render ignored: "panels" is not in permissions.ui', 'panel_close ignored: "panels" is not in permissions.ui']) {
      expect(text).toContain(line);
    }
    expect(t.host.reports()[0]!.permissions!.refused.ui.sort()).toEqual(["notes", "panels"]);
  });

  it("an interactive tool without the panels grant is dropped with a registration error; with it, it registers", async () => {
    writeExtension(sb.globalDir, "asker", { name: "asker", register: [tool("ask", { interactive: true }), tool("plain")] },
      { permissions: { ui: ["notes"] } });
    writeExtension(sb.globalDir, "panel-asker", { name: "panel-asker", register: [tool("ask2", { interactive: true })] },
      { permissions: { ui: ["panels"] } });
    const t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name).sort()).toEqual(["ask2", "plain"]);
    expect(t.host.reports().find((r) => r.name === "asker")!.errors).toEqual([
      expect.stringMatching(/tool "ask" was dropped: an interactive tool needs "panels" in permissions\.ui/)]);
  });

  it("a POSIX sh extension granted notes may notify", async () => {
    const dir = join(sb.globalDir, "sh-notes");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "run.sh"), `#!/bin/sh
echo '{"type":"hello","name":"sh-notes","version":"1.0.0","capabilities":[]}'
read ack
echo '{"type":"notify","level":"info","message":"from sh"}'
echo '{"type":"ready"}'
while read line; do case "$line" in *'"shutdown"'*) echo '{"type":"shutdown_ack"}'; exit 0;; esac; done
`);
    chmodSync(join(dir, "run.sh"), 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "sh-notes", exec: "./run.sh", permissions: { ui: ["notes"] } }));
    const t = await startHost(sb);
    await waitFor(() => t.of("ext_notify").length > 0, "the note");
    expect(t.of("ext_notify")[0]).toMatchObject({ extension: "sh-notes", message: "from sh" });
  });
});
