// The Python SDK, driven over real stdio like a host would drive it. Every answer is compared
// as a whole frame. The probe fixture registers one handler per SDK surface.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ExtDriver, type Frame, startDriver } from "../support/ext-driver.ts";

const PROBE = join(import.meta.dirname, "..", "fixtures", "python-sdk", "probe.py");
const ACK = {
  type: "hello_ack", protocol_version: 1, zot_version: "0.1.0", provider: "anthropic", model: "m1",
  cwd: "/proj", extension_dir: "/ext/probe", data_dir: "/ext/probe", capabilities: ["call_tool"],
};
const OBJECT = { type: "object" };

// The interpreter behind `python3` (version managers wrap it in slow shell shims). Tests run it
// with -S: no site-packages, which proves the SDK needs only the standard library.
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

let drivers: ExtDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) {
    await d.close();
    expect(d.invalidLines).toEqual([]); // stdout carried protocol frames only
    expect(d.invalidFrames).toEqual([]); // each one valid by the protocol schemas
  }
});

function spawnProbe(env: Record<string, string> = {}): ExtDriver {
  // No bytecode cache: importing the SDK must not write __pycache__ into the repository.
  const d = startDriver(PYTHON, ["-S", PROBE], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...env } });
  drivers.push(d);
  return d;
}

async function startProbe(ack: object = ACK, env: Record<string, string> = {}): Promise<ExtDriver> {
  const d = spawnProbe(env);
  await d.next((f) => f.type === "hello");
  d.send(ack);
  await d.next((f) => f.type === "ready");
  return d;
}

const byId = (d: ExtDriver, id: string) => d.next((f) => f.id === id);
const ofType = (d: ExtDriver, type: string) => d.next((f) => f.type === type);

function command(d: ExtDriver, id: string, name: string, args = ""): Promise<Frame> {
  d.send({ type: "command_invoked", id, name, args });
  return byId(d, id);
}

function tool(d: ExtDriver, id: string, name: string, args: unknown = {}): Promise<Frame> {
  d.send({ type: "tool_call", id, name, args });
  return byId(d, id);
}

function intercept(d: ExtDriver, id: string, event: string, payload: object): Promise<Frame> {
  d.send({ type: "event_intercept", id, event, ...payload });
  return byId(d, id);
}

const display = (id: string, text: string) => ({ type: "command_response", id, action: "display", display: text });
const failed = (id: string, error: string) => ({ type: "command_response", id, action: "noop", error });
const textResult = (id: string, text: string, extra: object = {}) =>
  ({ type: "tool_result", id, content: [{ type: "text", text }], ...extra });
const allow = (id: string) => ({ type: "event_intercept_response", id });

describe("handshake and registration", () => {
  it("sends hello first, then registrations after hello_ack (on_hello ones included), then ready", async () => {
    const d = spawnProbe();
    expect(await d.next()).toEqual({
      type: "hello", name: "probe", version: "1.2.3",
      capabilities: ["commands", "tools", "events", "panels", "tool_cancel", "call_tool", "intercept_v2"],
    });
    d.send(ACK);
    await ofType(d, "ready");
    const cmd = (name: string, description: string) => ({ type: "register_command", name, description });
    const reg = (name: string, description: string, extra: object = {}) =>
      ({ type: "register_tool", name, description, schema: OBJECT, ...extra });
    expect(d.frames.slice(1)).toEqual([
      cmd("echo", "echo the arguments"), cmd("none", "returns None"), cmd("boom", "raises"),
      cmd("weird", "returns a non-response"), cmd("panel", "opens a panel"), cmd("tp", "tool_prompt"),
      cmd("badtp", "tool_prompt with bad args"), cmd("ins", "insert with an error line"),
      cmd("say", "one-way frames, then a prompt"), cmd("badnotify", "notify with an unknown level"),
      cmd("ask", "call_tool from a command: /ask <tool> [timeout seconds]"), cmd("where", "registered from on_hello"),
      { ...reg("upper", "upper-case text"), schema: { type: "object", properties: { text: { type: "string" } } } },
      reg("explode", "raises"), reg("nested", "calls read through the host"),
      reg("wait", "waits until cancelled", { interactive: true }), reg("loader", "activates hidden"),
      reg("hidden", "deferred tool returning a str", { deferred: true }), reg("pic", "an image"),
      { type: "subscribe", events: ["turn_end"], intercept: ["before_agent_start", "tool_call", "turn_start", "assistant_message"] },
      { type: "ready" },
    ]);
  });

  it("hands hello_ack's host metadata to on_hello", async () => {
    const d = await startProbe();
    expect(await command(d, "c1", "where")).toEqual(display("c1", "/proj m1 0.1.0 call_tool"));
  });

  it("ignores host frames that arrive before hello_ack", async () => {
    const d = spawnProbe();
    await ofType(d, "hello");
    d.send({ type: "command_invoked", id: "early", name: "echo", args: "x" });
    d.send(ACK);
    await ofType(d, "ready");
    expect(await command(d, "c1", "echo", "ok")).toEqual(display("c1", "ok"));
    expect(d.frames.filter((f) => f.id === "early")).toEqual([]);
  });

  it("exits cleanly when stdin closes before hello_ack", async () => {
    const d = spawnProbe();
    await ofType(d, "hello");
    expect(await d.close()).toEqual({ code: 0, signal: null });
    expect(d.frames).toEqual([expect.objectContaining({ type: "hello" })]);
  });
});

describe("registration after ready", () => {
  // A separate extension: the probe fixture is fixed at its hello-time registrations.
  const LATE = `
import sys; sys.path.insert(0, sys.argv[1])
from zot_ext import Extension, display, noop, text_result
ext = Extension("late", "0.1.0")

@ext.command("add", "registers /<name> and tool <name>_tool")
def add(name):
    @ext.command(name, "added late")
    def added(args):
        return display(name + " got " + args)
    @ext.tool(name + "_tool", "added late", {"type": "object"}, deferred=True)
    def added_tool(args, ctx):
        return text_result(name + " tool")
    return noop()

@ext.command("again", "registers an existing name twice")
def again(args):
    ext.command("ADD", "duplicate")(lambda a: None)

@ext.command("subscribe", "a new subscription after ready")
def subscribe(kind):
    if kind == "event":
        ext.on_event("turn_end", lambda f: None)
    elif kind == "same-event":
        ext.on_event("session_start", lambda f: ext.notify("info", "second handler"))
        return display("replaced")
    else:
        ext.intercept_turn_start(lambda step: None)

ext.on_event("session_start", lambda f: None)
ext.run()
`;
  const SDK_DIR = join(import.meta.dirname, "..", "..", "sdk", "python");

  async function startLate(): Promise<ExtDriver> {
    const d = startDriver(PYTHON, ["-S", "-c", LATE, SDK_DIR], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    drivers.push(d);
    await ofType(d, "hello");
    d.send(ACK);
    await ofType(d, "ready");
    return d;
  }

  it("announces a command and a tool registered by a handler at once, and they work", async () => {
    const d = await startLate();
    const response = await command(d, "c1", "add", "fresh");
    // The register frames go out before the handler's answer, in registration order.
    expect(d.frames.slice(-3)).toEqual([
      { type: "register_command", name: "fresh", description: "added late" },
      { type: "register_tool", name: "fresh_tool", description: "added late", schema: OBJECT, deferred: true },
      response,
    ]);
    expect(response).toEqual({ type: "command_response", id: "c1", action: "noop" });
    expect(await command(d, "c2", "fresh", "x")).toEqual(display("c2", "fresh got x"));
    expect(await tool(d, "t1", "fresh_tool")).toEqual(textResult("t1", "fresh tool"));
  });

  it("refuses a duplicate late command without announcing it", async () => {
    const d = await startLate();
    const before = d.frames.length;
    expect(await command(d, "c1", "again")).toEqual(failed("c1", "/again failed: ValueError: command /ADD is already registered"));
    expect(d.frames.slice(before)).toEqual([failed("c1", "/again failed: ValueError: command /ADD is already registered")]);
  });

  it("raises a clear error for a new event subscription or interceptor after ready", async () => {
    const d = await startLate();
    const late = "subscriptions are announced once, before ready; register before run() or in on_hello";
    expect(await command(d, "c1", "subscribe", "event")).toEqual(
      failed("c1", `/subscribe failed: RuntimeError: on_event('turn_end'): ${late}`));
    expect(await command(d, "c2", "subscribe", "intercept")).toEqual(
      failed("c2", `/subscribe failed: RuntimeError: turn_start interceptor: ${late}`));
    // An already subscribed event may change its handler: nothing new to announce.
    expect(await command(d, "c3", "subscribe", "same-event")).toEqual(display("c3", "replaced"));
    d.send({ type: "event", event: "session_start" });
    expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "info", message: "second handler" });
    expect(d.frames.filter((f) => f.type === "subscribe")).toEqual([{ type: "subscribe", events: ["session_start"] }]);
  });
});

describe("command_response", () => {
  it("builds each action exactly", async () => {
    const d = await startProbe();
    expect(await command(d, "c1", "echo", "hi there")).toEqual(display("c1", "hi there"));
    expect(await command(d, "c2", "none")).toEqual({ type: "command_response", id: "c2", action: "noop" });
    expect(await command(d, "c3", "panel")).toEqual({
      type: "command_response", id: "c3", action: "open_panel",
      open_panel: { id: "p1", title: "Title", lines: ["a", "b"], footer: "footer" },
    });
    expect(await command(d, "c4", "tp", "and push")).toEqual({
      type: "command_response", id: "c4", action: "tool_prompt", prompt: "and push",
      tool_name: "skill", tool_args: { name: "developer:commit" },
    });
    expect(await command(d, "c5", "ins", "text")).toEqual(
      { type: "command_response", id: "c5", action: "insert", insert: "text", error: "careful" });
  });

  it("sends one-way frames in call order and keeps print() off stdout", async () => {
    const d = await startProbe();
    const response = await command(d, "c1", "say", "go on");
    expect(d.frames.slice(-4)).toEqual([
      { type: "notify", level: "warn", message: "go on" },
      { type: "clear_notes" },
      { type: "submit", text: "go on" },
      response,
    ]);
    expect(response).toEqual({ type: "command_response", id: "c1", action: "prompt", prompt: "go on" });
    await vi.waitFor(() => expect(d.stderr()).toContain("stray stdout print"));
  });

  it("turns a raising or misbehaving handler into an error response and keeps running", async () => {
    const d = await startProbe();
    expect(await command(d, "c1", "boom")).toEqual(failed("c1", "/boom failed: ValueError: kaboom"));
    expect(await command(d, "c2", "weird")).toEqual(failed("c2",
      "/weird failed: TypeError: handler returned int; return prompt(), display(), insert(), noop(), open_panel() or tool_prompt()"));
    expect(await command(d, "c3", "badtp")).toEqual(
      failed("c3", "/badtp failed: ValueError: tool_prompt tool_args must be a dict (a JSON object)"));
    expect(await command(d, "c4", "badnotify", "x")).toEqual(
      failed("c4", "/badnotify failed: ValueError: notify level must be one of info, success, warn, error; got 'loud'"));
    expect(await command(d, "c5", "nope")).toEqual(failed("c5", "no handler for /nope"));
    expect(await command(d, "c6", "echo", "alive")).toEqual(display("c6", "alive"));
    await expect.poll(() => d.stderr(), { timeout: 15_000 }).toContain("kaboom"); // the traceback goes to the log
  });
});

describe("framing", () => {
  it("splits on \\n only: \\r\\n endings and Unicode line separators inside strings are fine", async () => {
    const d = await startProbe();
    const args = "a\u2028b\u2029c\u0085d\u000be";
    d.sendRaw(`${JSON.stringify({ type: "command_invoked", id: "c1", name: "echo", args })}\r\n`);
    expect(await byId(d, "c1")).toEqual(display("c1", args));
  });

  it("ignores malformed lines, non-objects, blank lines and unknown frame types", async () => {
    const d = await startProbe();
    d.sendRaw("not json\n[1,2]\n\n   \n");
    d.send({ type: "from_the_future", id: "x", payload: 1 });
    expect(await command(d, "c1", "echo", "still here")).toEqual(display("c1", "still here"));
    expect(d.frames.filter((f) => f.id === "x")).toEqual([]);
    // stderr is a separate pipe: its lines may arrive after the reply on stdout.
    await expect.poll(() => d.stderr(), { timeout: 15_000 }).toContain("malformed frame");
  });

  it("skips an inbound frame over 4 MiB and answers the next one", async () => {
    const d = await startProbe();
    const huge = "x".repeat(4 * 1024 * 1024 + 16);
    d.sendRaw(`${JSON.stringify({ type: "command_invoked", id: "big", name: "echo", args: huge })}\n`);
    expect(await command(d, "c1", "echo", "after")).toEqual(display("c1", "after"));
    expect(d.frames.filter((f) => f.id === "big")).toEqual([]);
    await expect.poll(() => d.stderr(), { timeout: 15_000 }).toContain("exceeds 4194304 bytes");
  });

  it("reads a frame of exactly 4 MiB whose \\r and \\n arrive in separate reads, and cuts one byte more", () => {
    // The reader on scripted reads: the chunk boundary is exact, which a pipe cannot promise.
    const script = `
import sys; sys.path.insert(0, sys.argv[1])
from zot_ext import _LineReader, MAX_FRAME_BYTES
class Chunks:
    def __init__(self, chunks): self.chunks = list(chunks)
    def read1(self, n): return self.chunks.pop(0) if self.chunks else b""
for size in (MAX_FRAME_BYTES, MAX_FRAME_BYTES + 1):
    frame = b"x" * size
    reader = _LineReader(Chunks([frame[:65536], frame[65536:] + b"\\r", b"\\n", b"next\\n"]), lambda m: None)
    lines = []
    while (line := reader.next_line()) is not None:
        lines.append(len(line))
    print(lines)
`;
    const out = execFileSync(PYTHON, ["-S", "-c", script, join(import.meta.dirname, "..", "..", "sdk", "python")], {
      encoding: "utf8",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(out).toBe(`[${4 * 1024 * 1024}, 4]\n[4]\n`);
  });

  it("answers with an error instead of writing an outbound frame over 4 MiB", async () => {
    const d = await startProbe();
    const max = 4 * 1024 * 1024;
    const frame = (args: string) => JSON.stringify({ type: "command_invoked", id: "c1", name: "echo", args });
    const args = "y".repeat(max - frame("").length); // the request itself is exactly at the limit
    d.sendRaw(`${frame(args)}\n`);
    const size = JSON.stringify(display("c1", args)).length;
    expect(await byId(d, "c1")).toEqual(
      failed("c1", `/echo failed: command_response frame is ${size} bytes, over the ${max}-byte limit`));
  });
});

describe("tool_call and tool_result", () => {
  it("answers with text, image, string and activate_tools results", async () => {
    const d = await startProbe();
    expect(await tool(d, "t1", "upper", { text: "abc" })).toEqual(textResult("t1", "ABC"));
    expect(await tool(d, "t2", "pic")).toEqual(
      { type: "tool_result", id: "t2", content: [{ type: "image", mime_type: "image/png", data: "aGk=" }] });
    expect(await tool(d, "t3", "hidden")).toEqual(textResult("t3", "plain string"));
    expect(await tool(d, "t4", "loader")).toEqual(textResult("t4", "loaded", { activate_tools: ["hidden"] }));
  });

  it("reports raising handlers, unknown tools and non-object args as error results", async () => {
    const d = await startProbe();
    const error = { is_error: true };
    expect(await tool(d, "t1", "explode")).toEqual(textResult("t1", "explode failed: RuntimeError: tool blew up", error));
    expect(await tool(d, "t2", "nope")).toEqual(textResult("t2", "no handler for tool 'nope'", error));
    expect(await tool(d, "t3", "upper", [1])).toEqual(textResult("t3", "upper: args must be a JSON object", error));
    expect(await tool(d, "t4", "upper", { text: "ok" })).toEqual(textResult("t4", "OK"));
  });

  it("runs calls concurrently and discards the result of a cancelled one", async () => {
    const d = await startProbe();
    d.send({ type: "tool_call", id: "t1", name: "wait", args: {} });
    expect(await tool(d, "t2", "upper", { text: "meanwhile" })).toEqual(textResult("t2", "MEANWHILE"));
    d.send({ type: "tool_cancel", id: "unknown" });
    d.send({ type: "tool_cancel", id: "t1" });
    expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "info", message: "cancelled t1" });
    expect(await command(d, "c1", "echo", "after")).toEqual(display("c1", "after"));
    d.send({ type: "shutdown" });
    await d.exited;
    expect(d.frames.filter((f) => f.id === "t1")).toEqual([]);
  });
});

describe("call_tool", () => {
  it("fills parent_id inside a tool handler and returns the host's result", async () => {
    const d = await startProbe();
    d.send({ type: "tool_call", id: "t1", name: "nested", args: { path: "a.txt" } });
    const call = await ofType(d, "call_tool");
    expect(call).toEqual({ type: "call_tool", id: call.id, name: "read", args: { path: "a.txt" }, parent_id: "t1" });
    expect(call.id).not.toBe("t1");
    d.send({ type: "tool_result", id: call.id, name: "read", content: [{ type: "text", text: "file body" }], is_error: false });
    expect(await byId(d, "t1")).toEqual(textResult("t1", "file body"));
  });

  it("sends no parent_id outside a tool and returns the whole result frame", async () => {
    const d = await startProbe();
    d.send({ type: "command_invoked", id: "c1", name: "ask", args: "read" });
    const call = await ofType(d, "call_tool");
    expect(call).toEqual({ type: "call_tool", id: call.id, name: "read", args: { path: "README.md" } });
    const result = { type: "tool_result", id: call.id, name: "read", content: [{ type: "text", text: "x" }], is_error: true, truncated: true };
    d.send(result);
    const response = await byId(d, "c1");
    expect(response).toEqual(display("c1", expect.any(String)));
    expect(JSON.parse(response.display as string)).toEqual(result);
  });

  it("cancels the nested call when the parent tool is cancelled", async () => {
    const d = await startProbe();
    d.send({ type: "tool_call", id: "t1", name: "nested", args: { path: "a.txt" } });
    const call = await ofType(d, "call_tool");
    d.send({ type: "tool_cancel", id: "t1" });
    expect(await ofType(d, "call_tool_cancel")).toEqual({ type: "call_tool_cancel", id: call.id });
    expect(await ofType(d, "notify")).toEqual(
      { type: "notify", level: "info", message: "nested failed: call_tool read: the parent tool call was cancelled" });
    d.send({ type: "shutdown" });
    await d.exited;
    expect(d.frames.filter((f) => f.id === "t1")).toEqual([]);
  });

  it("sends call_tool_cancel after the timeout and ignores the late result", async () => {
    const d = await startProbe();
    d.send({ type: "command_invoked", id: "c1", name: "ask", args: "read 0.2" });
    const call = await ofType(d, "call_tool");
    expect(await ofType(d, "call_tool_cancel")).toEqual({ type: "call_tool_cancel", id: call.id });
    expect(await byId(d, "c1")).toEqual(failed("c1", "CallToolTimeout: call_tool read timed out after 0.2s"));
    d.send({ type: "tool_result", id: call.id, content: [] });
    expect(await command(d, "c2", "echo", "alive")).toEqual(display("c2", "alive"));
  });

  it("refuses before sending anything when hello_ack lacks the call_tool capability", async () => {
    const { capabilities: _omitted, ...olderHost } = ACK;
    const d = await startProbe(olderHost);
    expect(await command(d, "c1", "ask", "read")).toEqual(failed("c1",
      'CallToolError: this zot host does not support call_tool (hello_ack.capabilities lacks "call_tool")'));
    expect(d.frames.filter((f) => f.type === "call_tool")).toEqual([]);
  });
});

describe("event_intercept", () => {
  it("before_agent_start: replaces, keeps (omits) or removes (\"\") the system prompt", async () => {
    const d = await startProbe();
    const ctx = { session_id: "s1", agent_run_id: "r1", cwd: "/proj", provider: "anthropic", model: "m1" };
    expect(await intercept(d, "i1", "before_agent_start", { ...ctx, system_prompt: "base" }))
      .toEqual({ type: "event_intercept_response", id: "i1", system_prompt: "base +probe (s1/r1/m1)" });
    expect(await intercept(d, "i2", "before_agent_start", { ...ctx, system_prompt: "KEEP" })).toEqual(allow("i2"));
    expect(await intercept(d, "i3", "before_agent_start", { ...ctx, system_prompt: "CLEAR" }))
      .toEqual({ type: "event_intercept_response", id: "i3", system_prompt: "" });
  });

  it("tool_call: blocks, rewrites args, allows, and fails open (allow, unchanged) when the guard raises", async () => {
    const d = await startProbe();
    const call = (name: string, args: object) => ({ tool_id: "x", tool_name: name, tool_args: args });
    expect(await intercept(d, "i1", "tool_call", call("bash", { command: "rm -rf /tmp/foo" }))).toEqual(
      { type: "event_intercept_response", id: "i1", block: true, reason: 'refused: matches danger pattern "rm -rf"' });
    expect(await intercept(d, "i2", "tool_call", call("bash", { command: "ls" }))).toEqual(
      { type: "event_intercept_response", id: "i2", modified_args: { command: "echo GUARDED: ls" } });
    expect(await intercept(d, "i3", "tool_call", call("read", { path: "a" }))).toEqual(allow("i3"));
    expect(await intercept(d, "i4", "tool_call", call("explode", {}))).toEqual(allow("i4"));
    expect(await intercept(d, "i5", "tool_call", call("unsendable", {}))).toEqual(allow("i5"));
    await expect.poll(() => d.stderr(), { timeout: 15_000 }).toContain("RuntimeError: guard bug");
  });

  it("tool_call: the (allow, reason) form blocks with its reason", async () => {
    const d = await startProbe(ACK, { PROBE_PLAIN_GUARD: "1" });
    const call = (name: string) => ({ tool_id: "x", tool_name: name, tool_args: {} });
    expect(await intercept(d, "i1", "tool_call", call("bash")))
      .toEqual({ type: "event_intercept_response", id: "i1", block: true, reason: "no bash here" });
    expect(await intercept(d, "i2", "tool_call", call("read"))).toEqual(allow("i2"));
  });

  it("turn_start and assistant_message: block, replace_text, pass through", async () => {
    const d = await startProbe();
    expect(await intercept(d, "i1", "turn_start", { step: 1 })).toEqual(allow("i1"));
    expect(await intercept(d, "i2", "turn_start", { step: 4 }))
      .toEqual({ type: "event_intercept_response", id: "i2", block: true, reason: "too many steps" });
    expect(await intercept(d, "i3", "assistant_message", { text: "key: SECRET" }))
      .toEqual({ type: "event_intercept_response", id: "i3", replace_text: "key: [redacted]" });
    expect(await intercept(d, "i4", "assistant_message", { text: "fine" })).toEqual(allow("i4"));
    expect(await intercept(d, "i5", "assistant_message", { text: "BLOCKME" }))
      .toEqual({ type: "event_intercept_response", id: "i5", block: true, reason: "blocked" });
    expect(await intercept(d, "i6", "not_interceptable", {})).toEqual(allow("i6"));
  });
});

describe("events and panels", () => {
  it("delivers subscribed events in order and ignores the rest", async () => {
    const d = await startProbe();
    d.send({ type: "event", event: "tool_call", tool_id: "x", tool_name: "read", tool_args: {} });
    for (const sequence of [1, 2, 3]) d.send({ type: "event", event: "turn_end", stop: "end_turn", sequence });
    for (const n of [1, 2, 3]) {
      expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "info", message: `turn_end end_turn #${n}` });
    }
    expect(await command(d, "c1", "echo", "done")).toEqual(display("c1", "done"));
    expect(d.frames.filter((f) => f.type === "notify")).toHaveLength(3);
  });

  it("routes panel_key and panel_close to the panel's callbacks", async () => {
    const d = await startProbe();
    await command(d, "c1", "panel");
    d.send({ type: "panel_key", panel_id: "other", key: "down" });
    d.send({ type: "panel_key", panel_id: "p1", key: "down" });
    d.send({ type: "panel_key", panel_id: "p1", key: "rune", text: "x" });
    expect(await ofType(d, "panel_render")).toEqual({ type: "panel_render", panel_id: "p1", title: "Title", lines: ["down:"] });
    expect(await ofType(d, "panel_render")).toEqual({ type: "panel_render", panel_id: "p1", title: "Title", lines: ["rune:x"] });
    d.send({ type: "panel_close", panel_id: "p1" });
    expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "info", message: "p1 closed" });
  });
});

describe("shutdown", () => {
  it("acknowledges shutdown last, cancels running tools and exits 0", async () => {
    const d = await startProbe();
    d.send({ type: "tool_call", id: "t1", name: "wait", args: {} });
    d.send({ type: "shutdown" });
    expect(await d.exited).toEqual({ code: 0, signal: null });
    expect(d.frames.at(-1)).toEqual({ type: "shutdown_ack" });
    expect(d.frames.filter((f) => f.id === "t1")).toEqual([]);
  });

  it("exits 0 on stdin EOF with a tool still running", async () => {
    const d = await startProbe();
    d.send({ type: "tool_call", id: "t1", name: "wait", args: {} });
    expect(await d.close()).toEqual({ code: 0, signal: null });
    expect(d.frames.filter((f) => f.id === "t1")).toEqual([]);
  });
});
