import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import type { ToolExecutionContext } from "../../lib/tools/types.ts";
import { command, readRecord, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

// The interpreter behind `python3`, by absolute path (a version manager's shim is slow to start).
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

const ctx = (signal = new AbortController().signal): ToolExecutionContext => ({ cwd: "/", signal });
const PNG = "iVBORw0KGgo=";

/** Replies to tool calls by tool name: `weather` echoes the city, `pic` an image, `bad` an error, `hang` never. */
const toolHandlers = `
  if (msg.name === "weather") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:msg.args.city+": 16°C, fog"}]});
  else if (msg.name === "pic") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"a picture"},{type:"image",mime_type:"image/png",data:"${PNG}"}]});
  else if (msg.name === "bad") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"no such city"}],is_error:true});
  else if (msg.name === "loader") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"enabled"}],activate_tools:["later","nonexistent"]});
  else if (msg.name === "later") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"deferred ran"}]});
  else if (msg.name === "hang") ctx.later(${"${lateMs}"}, () => ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"too late"}]}));
  else if (msg.name === "ask") ctx.later(400, () => ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"the user said yes"}]}));
  else if (msg.name === "die") process.exit(9);
`;
const handlers = (lateMs: number) => toolHandlers.replace("${lateMs}", String(lateMs));

describe("register_tool / tool_call / tool_result", () => {
  it("extension tools join the registry with their JSON Schema; built-ins win", async () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    writeExtension(sb.globalDir, "wx", { name: "wx", register: [tool("weather", { schema, description: "Current weather." }), tool("read"), { type: "register_tool", name: "bare" }] });
    t = await startHost(sb);
    const tools = t.host.tools();
    expect(tools.map((x) => [x.name, x.description, x.schema, x.source])).toEqual([
      ["weather", "Current weather.", schema, { kind: "extension", extension: "wx" }],
      ["bare", "", { type: "object", properties: {} }, { kind: "extension", extension: "wx" }]]);
    expect(t.host.reports()[0]!.conflicts).toEqual(["tool read is shadowed by the built-in tool"]);
    expect(readFileSync(extensionLogPath(sb.paths, "wx"), "utf8")).toContain("tool read is shadowed by the built-in tool");
  });

  it("agent is a built-in tool name too: an extension's agent tool is shadowed", async () => {
    writeExtension(sb.globalDir, "delegate", { name: "delegate", register: [tool("agent"), tool("helper")] });
    t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name)).toEqual(["helper"]);
    expect(t.host.reports()[0]!.conflicts).toEqual(["tool agent is shadowed by the built-in tool"]);
  });

  it("a call sends tool_call with the args and returns text and image blocks, attributed to the extension", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "wx", { name: "wx", record, register: [tool("weather"), tool("pic"), tool("bad")], on: { tool_call: handlers(0) } });
    t = await startHost(sb);
    const [weather, pic, bad] = t.host.tools();
    expect(await weather!.execute({ city: "Berlin" }, ctx())).toEqual({
      content: [{ type: "text", text: "Berlin: 16°C, fog" }], isError: false, status: "completed", details: { extension: "wx" } });
    expect(readRecord(record).find((f) => f.type === "tool_call")).toEqual({ type: "tool_call", id: expect.any(String), name: "weather", args: { city: "Berlin" } });
    expect((await pic!.execute({}, ctx())).content).toEqual([{ type: "text", text: "a picture" }, { type: "image", mime_type: "image/png", data: PNG }]);
    expect(await bad!.execute({}, ctx())).toMatchObject({ isError: true, status: "failed", content: [{ type: "text", text: "no such city" }] });
  });

  it("a deferred tool stays hidden until a tool_result names it in activate_tools (unknown names ignored)", async () => {
    writeExtension(sb.globalDir, "lazy", { name: "lazy", register: [tool("loader"), tool("later", { deferred: true })], on: { tool_call: handlers(0) } });
    t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name)).toEqual(["loader"]);
    expect(t.host.reports()[0]!.tools).toEqual([{ name: "loader", deferred: false, interactive: false }, { name: "later", deferred: true, interactive: false }]);
    const outcome = await t.host.tools()[0]!.execute({}, ctx());
    expect(outcome.activateTools).toEqual(["later", "nonexistent"]);
    expect(t.host.tools().map((x) => x.name)).toEqual(["loader", "later"]);
    expect((await t.host.tools()[1]!.execute({}, ctx())).content).toEqual([{ type: "text", text: "deferred ran" }]);
  });

  it("a tool that hangs times out as timed_out; its late result is ignored; tool_cancel goes only to extensions that advertised it", async () => {
    const withCancel = join(sb.scratch, "with.jsonl");
    const without = join(sb.scratch, "without.jsonl");
    writeExtension(sb.globalDir, "a", { name: "a", record: withCancel, capabilities: ["tools", "tool_cancel"], register: [tool("hang")], on: { tool_call: handlers(500) } });
    writeExtension(sb.globalDir, "b", { name: "b", record: without, capabilities: ["tools", "tool-cancel", "cancel"], register: [tool("hang2")],
      on: { tool_call: handlers(500).replace('msg.name === "hang"', 'msg.name === "hang2"') } });
    t = await startHost(sb, { timeouts: { toolCall: 150 } });
    const [a, b] = t.host.tools();
    for (const proxy of [a!, b!]) {
      const outcome = await proxy.execute({}, ctx());
      expect(outcome).toMatchObject({ isError: true, status: "timed_out", content: [{ type: "text", text: expect.stringMatching(/did not reply within 150 ms/) }] });
    }
    await waitFor(() => readFileSync(extensionLogPath(sb.paths, "b"), "utf8").includes("tool_result for unknown or finished request"), "late result logged");
    const call = readRecord(withCancel).find((f) => f.type === "tool_call")!;
    expect(readRecord(withCancel).filter((f) => f.type === "tool_cancel")).toEqual([{ type: "tool_cancel", id: call.id }]);
    expect(readRecord(without).filter((f) => f.type === "tool_cancel")).toEqual([]);
    expect(t.host.reports().every((r) => r.status === "ok")).toBe(true);
  });

  it("cancelling a running call returns cancelled and sends tool_cancel", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "a", { name: "a", record, capabilities: ["tools", "tool_cancel"], register: [tool("hang")], on: { tool_call: handlers(60_000) } });
    t = await startHost(sb);
    const controller = new AbortController();
    const running = t.host.tools()[0]!.execute({}, ctx(controller.signal));
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_call"), "tool_call delivered");
    controller.abort();
    expect(await running).toMatchObject({ status: "cancelled", isError: true });
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel"), "tool_cancel");
  });

  it("a malformed tool_result fails its pending call at once with the validation error", async () => {
    writeExtension(sb.globalDir, "m", { name: "m", register: [tool("broken")],
      on: { tool_call: `ctx.send({type:"tool_result",id:msg.id,content:"not a list"})` } });
    // A long deadline: only settling on the invalid reply lets the test finish.
    t = await startHost(sb, { timeouts: { toolCall: 600_000 } });
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ isError: true, details: { extension: "m" },
      content: [{ type: "text", text: expect.stringMatching(/sent an invalid tool_result: tool_result: content: /) }] });
    expect(t.host.reports()[0]!.status).toBe("ok");
  });

  it("an unsupported content block is omitted and logged; the other blocks are kept", async () => {
    writeExtension(sb.globalDir, "m", { name: "m", register: [tool("mixed")],
      on: { tool_call: `ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"before"},{type:"audio",data:"x"},{type:"text",text:"after"}]})` } });
    t = await startHost(sb, { timeouts: { toolCall: 600_000 } });
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ isError: false, status: "completed",
      content: [{ type: "text", text: "before" }, { type: "text", text: "after" }] });
    expect(readFileSync(extensionLogPath(sb.paths, "m"), "utf8")).toMatch(/content block of type "audio" is not supported; omitted/);
  });

  it("an extension that dies mid-call fails the call", async () => {
    writeExtension(sb.globalDir, "d", { name: "d", register: [tool("die")], on: { tool_call: handlers(0) } });
    t = await startHost(sb);
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ status: "failed", isError: true, details: { extension: "d" } });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    expect(t.host.tools()).toEqual([]);
  });
});

describe("tool_call writes and cancellation", () => {
  /** An extension that registers a tool and an event subscription, then never reads stdin. */
  const deaf = () => writeExtension(sb.globalDir, "deaf", { name: "deaf", noRead: true, legacy: true, capabilities: ["tools", "tool_cancel"],
    register: [tool("slow"), { type: "subscribe", events: ["user_prompt_submit"] }] });

  it("cancelling a call whose frame is still queued withdraws it and keeps the extension", async () => {
    deaf();
    t = await startHost(sb, { timeouts: { write: 60_000 } });
    t.bus.lifecycle({ type: "user_prompt_submit", text: "q".repeat(1024 * 1024) }); // blocks the pipe
    const controller = new AbortController();
    const running = t.host.tools()[0]!.execute({}, ctx(controller.signal));
    controller.abort();
    expect(await running).toMatchObject({ status: "cancelled" });
    expect(t.host.reports()[0]!.status).toBe("ok");
    expect(t.of("ext_error")).toEqual([]);
  });

  it("cancelling a call while its own write is blocked disconnects the extension", async () => {
    deaf();
    t = await startHost(sb, { timeouts: { write: 60_000 } });
    const controller = new AbortController();
    const running = t.host.tools()[0]!.execute({ blob: "b".repeat(1024 * 1024) }, ctx(controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await running).toMatchObject({ status: "cancelled" });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    expect(t.of("ext_error")[0]!.message).toMatch(/cancelled while its write was blocked/);
    expect(t.host.tools()).toEqual([]);
  });
});

describe("Interactive tools", () => {
  it("have no reply deadline in an interactive host", async () => {
    writeExtension(sb.globalDir, "i", { name: "i", register: [tool("ask", { interactive: true })], on: { tool_call: handlers(0) } });
    t = await startHost(sb, { timeouts: { toolCall: 100 } });
    const ask = t.host.tools()[0]!;
    expect(ask.interactive).toBe(true);
    expect(await ask.execute({}, ctx())).toMatchObject({ status: "completed", content: [{ type: "text", text: "the user said yes" }] });
  });

  it("are rejected with a tool error in hosts without interactive support, without reaching the extension", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "i", { name: "i", record, register: [tool("ask", { interactive: true })], on: { tool_call: handlers(0) } });
    t = await startHost(sb, { interactive: false });
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ isError: true, status: "failed",
      content: [{ type: "text", text: expect.stringMatching(/interactive/) }] });
    expect(readRecord(record).some((f) => f.type === "tool_call")).toBe(false);
  });

  it("interactive tools outlive the 60 s request deadline only when the model invokes them, never through call_tool", async () => {
    // "ask" answers after 400 ms: past both shrunken deadlines (tool_call 100 ms, call_tool 200 ms).
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "i", { name: "i", record, capabilities: ["commands", "tools", "call_tool", "tool_cancel"],
      register: [tool("ask", { interactive: true }), command("ask-via-call-tool")], on: {
        tool_call: handlers(0),
        command_invoked: `ctx.state.cmd = msg.id; ctx.send({type:"call_tool",id:"via-cmd",name:"ask",args:{}})`,
        tool_result: `if (msg.id === "via-cmd") ctx.send({type:"command_response",id:ctx.state.cmd,action:"display",display:JSON.stringify(msg)})`,
      } });
    t = await startHost(sb, { timeouts: { toolCall: 100, callTool: 200 } });
    const started = Date.now();
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ status: "completed", content: [{ type: "text", text: "the user said yes" }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);

    const response = await t.host.invokeCommand("ask-via-call-tool", "");
    expect(JSON.parse((response as { display: string }).display)).toMatchObject({ id: "via-cmd", is_error: true,
      content: [{ type: "text", text: "call_tool ask timed out after 200 ms" }] });
    // The abandoned interactive call is cancelled at the extension, not left waiting for the user.
    const calls = readRecord(record).filter((f) => f.type === "tool_call");
    expect(calls).toHaveLength(2);
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel" && f.id === calls[1]!.id), "tool_cancel of the call_tool call");
  });
});

describe("Interactive tools: cancellation and disconnects end interactive calls", () => {
  // No reply deadline applies to interactive calls, and the test's own limits are far shorter
  // than the host's: only the cancellation or the disconnect can end these calls.
  const NEVER = { toolCall: 600_000, callTool: 600_000 };

  it("cancelling an interactive call returns cancelled at once and sends tool_cancel", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    writeExtension(sb.globalDir, "i", { name: "i", record, capabilities: ["tools", "tool_cancel"], register: [tool("ask", { interactive: true })] });
    t = await startHost(sb, { timeouts: NEVER });
    const controller = new AbortController();
    const running = t.host.tools()[0]!.execute({}, ctx(controller.signal));
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_call"), "tool_call delivered");
    controller.abort();
    expect(await running).toMatchObject({ status: "cancelled", isError: true });
    const call = readRecord(record).find((f) => f.type === "tool_call")!;
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel" && f.id === call.id), "tool_cancel");
    expect(t.host.reports()[0]!.status).toBe("ok");
  });

  it("an extension that closes its stdout during an interactive call (Python) ends the call as failed", async () => {
    const dir = join(sb.globalDir, "py-closer");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "ext.py"), [
      "import json, os, sys, time",
      "def emit(o):",
      "    sys.stdout.write(json.dumps(o) + '\\n'); sys.stdout.flush()",
      "emit({'type': 'hello', 'name': 'py-closer', 'version': '1.0.0', 'capabilities': ['tools']})",
      "for line in sys.stdin:",
      "    msg = json.loads(line)",
      "    if msg['type'] == 'hello_ack':",
      "        emit({'type': 'register_tool', 'name': 'ask', 'description': 'ask the user', 'interactive': True,",
      "              'schema': {'type': 'object', 'properties': {}}})",
      "        emit({'type': 'ready'})",
      "    elif msg['type'] == 'tool_call':",
      "        os.close(1)",
      "        time.sleep(30)",
    ].join("\n"));
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "py-closer", exec: PYTHON, args: ["-S", "ext.py"], language: "python" }));
    t = await startHost(sb, { timeouts: NEVER });
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", tools: [{ name: "ask", interactive: true }] });
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ status: "failed", isError: true,
      content: [{ type: "text", text: expect.stringMatching(/failed: the extension stopped \(.*closed its stdout/) }] });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    expect(t.host.tools()).toEqual([]);
  });

  it("an extension whose process exits during an interactive call (sh) ends the call as failed", async () => {
    const dir = join(sb.globalDir, "sh-exiter");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "ext.sh"), [
      `echo '{"type":"hello","name":"sh-exiter","version":"1.0.0","capabilities":["tools"]}'`,
      "while IFS= read -r line; do",
      "  case \"$line\" in",
      `    *'"hello_ack"'*) echo '{"type":"register_tool","name":"ask","description":"ask the user","interactive":true,"schema":{"type":"object"}}'; echo '{"type":"ready"}' ;;`,
      `    *'"tool_call"'*) exit 4 ;;`,
      `    *'"shutdown"'*) exit 0 ;;`,
      "  esac",
      "done",
    ].join("\n"));
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "sh-exiter", exec: "sh", args: ["./ext.sh"], language: "sh" }));
    t = await startHost(sb, { timeouts: NEVER });
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", tools: [{ name: "ask", interactive: true }] });
    expect(await t.host.tools()[0]!.execute({}, ctx())).toMatchObject({ status: "failed", isError: true,
      content: [{ type: "text", text: expect.stringMatching(/failed: the extension stopped/) }] });
    await waitFor(() => t!.of("ext_error").length, "ext_error");
    expect(t.of("ext_error")[0]!.message).toMatch(/exit/);
  });
});
