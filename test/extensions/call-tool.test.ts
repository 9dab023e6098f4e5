import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import type { ToolExecutionContext } from "../../lib/tools/types.ts";
import { command, readRecord, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

const ctx = (signal = new AbortController().signal): ToolExecutionContext => ({ cwd: "/", signal });

/**
 * The chain extension: tool X with args {next:[Y, …]} calls Y through call_tool (parented by
 * its own tool_call id unless noParent/badParent) and answers "X>" + Y's text, or "X>ERR(…)".
 * Leaf tools answer their own name. /call <tool> calls a tool from a command (no parent).
 */
const chain = {
  tool_call: `
    const next = msg.args.next || [];
    if (msg.name === "big") return ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"é".repeat(150*1024)},{type:"text",text:"tail"}]});
    if (next.length === 0) return ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:msg.name}]});
    const cid = "c-" + msg.id;
    ctx.state[cid] = { id: msg.id, name: msg.name };
    const frame = {type:"call_tool",id:cid,name:next[0],args:{next:next.slice(1)}};
    if (msg.args.badParent) frame.parent_id = "no-such-call";
    else if (!msg.args.noParent) frame.parent_id = msg.id;
    ctx.send(frame);`,
  tool_result: `
    const orig = ctx.state[msg.id];
    if (!orig) return;
    const text = (msg.content || []).map((b) => b.text).join("");
    if (orig.command) return ctx.send({type:"command_response",id:orig.id,action:"display",display:JSON.stringify(msg)});
    ctx.send({type:"tool_result",id:orig.id,content:[{type:"text",text:orig.name + ">" + (msg.is_error ? "ERR(" + text + ")" : text)}]});`,
  command_invoked: `
    const [name, cancelAfter] = msg.args.split(" ");
    const cid = "cmd-" + msg.id;
    ctx.state[cid] = { id: msg.id, command: true };
    ctx.send({type:"call_tool",id:cid,name,args:{}});
    if (cancelAfter) ctx.later(Number(cancelAfter), () => ctx.send({type:"call_tool_cancel",id:cid}));`,
};

function chainExtension(capabilities = ["tools", "call_tool"], record?: string) {
  return writeExtension(sb.globalDir, "chain", {
    name: "chain", capabilities, record,
    register: [...["a", "b", "c", "d", "e", "big"].map((n) => tool(n)), command("call")], on: chain,
  });
}

/** Another extension with a tool that never answers (and records tool_cancel). */
function hangExtension(record: string) {
  return writeExtension(sb.globalDir, "hanger", { name: "hanger", record, capabilities: ["tools", "tool_cancel"],
    register: [tool("hang"), tool("weather")],
    on: { tool_call: `if (msg.name === "weather") ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"sunny"}]})` } });
}

async function run(name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const proxy = t!.host.tools().find((x) => x.name === name)!;
  const outcome = await proxy.execute(args, ctx(signal));
  return outcome.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

async function callFromCommand(args: string) {
  const response = await t!.host.invokeCommand("call", args);
  return JSON.parse((response as { display: string }).display) as Record<string, unknown>;
}

describe("call_tool", () => {
  it("a command handler can call another extension's tool; the reply is a correlated tool_result", async () => {
    chainExtension();
    hangExtension(join(sb.scratch, "h.jsonl"));
    t = await startHost(sb);
    expect(await callFromCommand("weather")).toEqual({ type: "tool_result", id: expect.stringMatching(/^cmd-/), name: "weather",
      content: [{ type: "text", text: "sunny" }], is_error: false });
  });

  it("hello_ack advertises call_tool, and extensions that did not opt in are refused", async () => {
    const record = join(sb.scratch, "rec.jsonl");
    chainExtension(["tools"], record);
    t = await startHost(sb);
    expect(readRecord(record)[0]!.capabilities).toContain("call_tool");
    expect(await callFromCommand("a")).toMatchObject({ is_error: true, content: [{ text: expect.stringMatching(/did not advertise the "call_tool" capability/) }] });
  });

  it("calls go through the agent's runTool with the origin extension and parent id", async () => {
    chainExtension();
    const seen: Array<{ name: string; args: unknown; origin: string; parent?: string }> = [];
    t = await startHost(sb, {
      runTool: async (name, args, c) => {
        seen.push({ name, args, origin: c.originExtension, parent: c.parentId });
        return { content: [{ type: "text", text: `builtin ${name} ran` }] };
      },
    });
    expect(await callFromCommand("read")).toMatchObject({ name: "read", is_error: false, content: [{ type: "text", text: "builtin read ran" }] });
    expect(await run("a", { next: ["bash"] })).toBe("a>builtin bash ran");
    expect(seen).toEqual([
      { name: "read", args: {}, origin: "chain", parent: undefined },
      { name: "bash", args: { next: [] }, origin: "chain", parent: expect.stringMatching(/tool/) }]);
  });

  it("calls pass through tool_call interception, which sees origin_extension", async () => {
    chainExtension();
    hangExtension(join(sb.scratch, "h.jsonl"));
    const guardRecord = join(sb.scratch, "guard.jsonl");
    writeExtension(sb.globalDir, "guard", { name: "guard", record: guardRecord, register: [{ type: "subscribe", intercept: ["tool_call"] }],
      on: { event_intercept: `ctx.send({type:"event_intercept_response",id:msg.id,block:msg.tool_name==="weather",reason:"no weather today"})` } });
    t = await startHost(sb);
    expect(await callFromCommand("weather")).toMatchObject({ is_error: true, content: [{ type: "text", text: "no weather today" }] });
    expect(readRecord(guardRecord).find((f) => f.type === "event_intercept")).toMatchObject({ event: "tool_call", tool_name: "weather", origin_extension: "chain" });
  });

  it("parent_id chains nest tool calls", async () => {
    chainExtension();
    t = await startHost(sb);
    expect(await run("a", { next: ["b", "c", "d"] })).toBe("a>b>c>d");
  });

  it("a chain refuses a repeated tool name", async () => {
    chainExtension();
    t = await startHost(sb);
    expect(await run("a", { next: ["b", "a"] })).toMatch(/^a>b>ERR\(call_tool refused: tool a already appears in this call chain \(a → b\)\)$/);
  });

  it("a chain holds at most four tool calls, the original included", async () => {
    chainExtension();
    t = await startHost(sb);
    expect(await run("a", { next: ["b", "c", "d", "e"] })).toMatch(/^a>b>c>d>ERR\(call_tool refused: a call chain holds at most 4 tool calls/);
  });

  it("unknown parent ids fail, and un-parented calls are refused while a host-invoked tool of that extension runs", async () => {
    chainExtension();
    t = await startHost(sb);
    expect(await run("a", { next: ["b"], badParent: true })).toMatch(/ERR\(call_tool refused: unknown or expired parent_id "no-such-call"\)/);
    expect(await run("a", { next: ["b"], noParent: true })).toMatch(/ERR\(call_tool refused: a tool of this extension invoked by the host is still running/);
  });

  it("results are bounded to 256 KiB at a character boundary and marked truncated", async () => {
    chainExtension();
    t = await startHost(sb);
    const reply = await callFromCommand("big");
    expect(reply.truncated).toBe(true);
    const content = reply.content as Array<{ text: string }>;
    expect(content).toHaveLength(1);
    expect(Buffer.byteLength(content[0]!.text)).toBe(256 * 1024);
    expect(content[0]!.text).toMatch(/^é+$/);
  });

  it("calls time out, and the abandoned tool is cancelled", async () => {
    chainExtension();
    const record = join(sb.scratch, "h.jsonl");
    hangExtension(record);
    t = await startHost(sb, { timeouts: { callTool: 200, toolCall: 60_000 } });
    expect(await callFromCommand("hang")).toMatchObject({ is_error: true, content: [{ text: "call_tool hang timed out after 200 ms" }] });
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel"), "tool_cancel to the hanging tool");
  });

  it("a timed-out call_tool aborts the callee with a TimeoutError, so its tool_result says timed_out", async () => {
    chainExtension();
    let reason: unknown;
    t = await startHost(sb, {
      timeouts: { callTool: 200 },
      runTool: (_name, _args, c) => new Promise((resolve) => c.signal.addEventListener("abort", () => {
        reason = c.signal.reason;
        resolve({ content: [{ type: "text", text: "stopped" }], isError: true, status: "cancelled" });
      })),
    });
    expect(await callFromCommand("read")).toMatchObject({ is_error: true, content: [{ text: "call_tool read timed out after 200 ms" }] });
    await waitFor(() => reason !== undefined, "the callee to be aborted");
    expect(reason).toMatchObject({ name: "TimeoutError" });
  });

  it("a command's deadline is extended while its extension has a call_tool in flight, such as one waiting for the user's confirmation", async () => {
    chainExtension();
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    t = await startHost(sb, {
      timeouts: { command: 200, callTool: 60_000 },
      // The user answers the call's confirmation well after the command deadline.
      runTool: async () => {
        await confirmed;
        return { content: [{ type: "text", text: "approved and ran" }] };
      },
    });
    setTimeout(confirm, 700);
    expect(await callFromCommand("bash")).toMatchObject({ is_error: false, content: [{ type: "text", text: "approved and ran" }] });
  });

  it("several call_tool requests may be outstanding at once with distinct ids; a duplicate live id is refused", async () => {
    writeExtension(sb.globalDir, "fan", { name: "fan", capabilities: ["commands", "call_tool"], register: [command("fan")], on: {
      command_invoked: `ctx.state.cmd = msg.id; ctx.state.replies = [];
        for (const [id, name] of [["x1", "read"], ["x2", "bash"], ["x1", "write"]]) ctx.send({type: "call_tool", id, name, args: {}});`,
      tool_result: `ctx.state.replies.push({id: msg.id, name: msg.name, text: msg.content[0].text});
        if (ctx.state.replies.length === 3) ctx.send({type: "command_response", id: ctx.state.cmd, action: "display", display: JSON.stringify(ctx.state.replies)});`,
    } });
    let running = 0;
    let most = 0;
    t = await startHost(sb, {
      runTool: async (name) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 300));
        running--;
        return { content: [{ type: "text", text: `${name} ran` }] };
      },
    });
    const response = await t.host.invokeCommand("fan", "");
    const replies = JSON.parse((response as { display: string }).display) as Array<{ id: string; name: string; text: string }>;
    expect(replies[0]).toEqual({ id: "x1", name: "write", text: 'call_tool refused: a call_tool request with id "x1" is already outstanding' });
    expect(replies.slice(1).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: "x1", name: "read", text: "read ran" }, { id: "x2", name: "bash", text: "bash ran" }]);
    expect(most).toBe(2);
  });

  it("call_tool_cancel cancels the request and the nested tool", async () => {
    chainExtension();
    const record = join(sb.scratch, "h.jsonl");
    hangExtension(record);
    t = await startHost(sb, { timeouts: { toolCall: 60_000, callTool: 60_000 } });
    expect(await callFromCommand("hang 100")).toMatchObject({ is_error: true, content: [{ text: "call_tool hang was cancelled" }] });
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel"), "tool_cancel");
  });

  it("cancelling the parent tool call cancels the nested call", async () => {
    chainExtension();
    const record = join(sb.scratch, "h.jsonl");
    hangExtension(record);
    t = await startHost(sb, { timeouts: { toolCall: 60_000, callTool: 60_000 } });
    const controller = new AbortController();
    const outer = run("a", { next: ["hang"] }, controller.signal);
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_call"), "nested tool_call");
    controller.abort();
    await outer;
    await waitFor(() => readRecord(record).some((f) => f.type === "tool_cancel"), "tool_cancel to the nested tool");
  });
});

/**
 * An extension whose /send command writes the frames given as JSON in its args, then a valid
 * call_tool "probe" of its own tool `echo`; when the probe's reply arrives it answers the command
 * with every tool_result it received so far. The host answers in order, so a reply to any of the
 * sent frames would arrive before the probe's.
 */
function senderExtension() {
  return writeExtension(sb.globalDir, "sender", {
    name: "sender", capabilities: ["tools", "call_tool"], register: [tool("echo"), command("send")],
    on: {
      command_invoked: `
        ctx.state.command = msg.id; ctx.state.results = [];
        for (const frame of JSON.parse(msg.args)) ctx.send(frame);
        ctx.send({type:"call_tool",id:"probe",name:"echo",args:{}});`,
      tool_call: `ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:msg.name}]})`,
      tool_result: `
        if (msg.id !== "probe") return void ctx.state.results.push(msg);
        ctx.send({type:"command_response",id:ctx.state.command,action:"display",display:JSON.stringify(ctx.state.results)});`,
    },
  });
}

async function send(frames: Array<Record<string, unknown>>) {
  const response = await t!.host.invokeCommand("send", JSON.stringify(frames));
  return JSON.parse((response as { display: string }).display) as Array<Record<string, unknown>>;
}

describe("invalid call_tool frames", () => {
  it("an invalid call_tool with an id is answered at once with an error tool_result, and logged", async () => {
    senderExtension();
    // Long deadlines: only an immediate reply lets the test finish.
    t = await startHost(sb, { timeouts: { callTool: 600_000, command: 600_000 } });
    expect(await send([
      { type: "call_tool", id: "array-args", name: "echo", args: ["not", "an", "object"] },
      { type: "call_tool", id: "no-name", args: {} },
      { type: "call_tool", id: "numeric-name", name: 7 },
    ])).toEqual([
      { type: "tool_result", id: "array-args", name: "echo", is_error: true,
        content: [{ type: "text", text: expect.stringMatching(/^invalid call_tool: args: .*object/) }] },
      { type: "tool_result", id: "no-name", is_error: true,
        content: [{ type: "text", text: expect.stringMatching(/^invalid call_tool: name: /) }] },
      { type: "tool_result", id: "numeric-name", is_error: true,
        content: [{ type: "text", text: expect.stringMatching(/^invalid call_tool: name: /) }] },
    ]);
    const log = readFileSync(extensionLogPath(sb.paths, "sender"), "utf8");
    expect(log).toMatch(/ignored invalid stdout line #1: call_tool: args: .*"array-args"/);
    expect(log).toMatch(/ignored invalid stdout line #3: call_tool: name: .*"numeric-name"/);
  });

  it("an invalid call_tool without an id and an invalid call_tool_cancel are only logged", async () => {
    senderExtension();
    t = await startHost(sb, { timeouts: { callTool: 600_000, command: 600_000 } });
    expect(await send([
      { type: "call_tool", name: "echo", args: {} },
      { type: "call_tool", id: 42, name: "echo" },
      { type: "call_tool_cancel", id: "" },
      { type: "call_tool_cancel" },
    ])).toEqual([]);
    const log = readFileSync(extensionLogPath(sb.paths, "sender"), "utf8");
    expect(log.match(/ignored invalid stdout line #\d+: call_tool: id: /g)).toHaveLength(2);
    expect(log.match(/ignored invalid stdout line #\d+: call_tool_cancel: id: /g)).toHaveLength(2);
  });
});
