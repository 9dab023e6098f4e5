// The TypeScript SDK, end to end: a real extension process built on it (test/fixtures/ts-sdk)
// is driven over stdio like a host would, on Node (bundled, as Node users ship it) and on Bun
// (running the TypeScript directly). Every assertion is on the exact frames it writes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { CallToolError, createExtension, MAX_FRAME_BYTES, noop, textResult } from "../../mod.ts";
import { startDriver, type ExtDriver, type Frame } from "../support/ext-driver.ts";

const root = resolve(import.meta.dirname, "..", "..");
const bun = join(root, "node_modules", ".bin", "bun");
const fixture = join(root, "test", "fixtures", "ts-sdk", "extension.ts");
let scratch = "";
let bundle = "";

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zot-ts-sdk-"));
  bundle = join(scratch, "extension.mjs");
  execFileSync(bun, ["build", fixture, "--target=node", "--outfile", bundle], { stdio: "pipe" });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ACK = {
  type: "hello_ack",
  protocol_version: 1,
  zot_version: "0.1.0",
  provider: "anthropic",
  model: "claude-test",
  cwd: "/work/project",
  extension_dir: "/zot/extensions/ts-sdk-fixture",
  data_dir: "/zot/extensions/ts-sdk-fixture",
  capabilities: ["call_tool"],
};

const HELLO = {
  type: "hello",
  name: "ts-sdk-fixture",
  version: "1.2.3",
  capabilities: ["commands", "tools", "events", "panels", "tool_cancel", "call_tool", "intercept_v2"],
};

const cmd = (name: string, description: string) => ({ type: "register_command", name, description });
const EMPTY_SCHEMA = { type: "object", properties: {} };
const tool = (name: string, description: string, extra: object = {}) => ({
  type: "register_tool",
  name,
  description,
  schema: EMPTY_SCHEMA,
  ...extra,
});

const REGISTRATIONS = [
  cmd("echo", "echo the args"),
  cmd("Shout", "canonical name with capitals"),
  cmd("ask", "prompt the model"),
  cmd("quiet", "return nothing"),
  cmd("boom", "throws"),
  cmd("bad", "returns a non-response"),
  cmd("skill", "tool_prompt shortcut"),
  cmd("panel", "open the scratch panel"),
  cmd("notes", "push one-way frames"),
  cmd("call", "callTool outside a tool"),
  cmd("host", "show host info"),
  cmd("cwd", "show the project directory"),
  {
    type: "register_tool",
    name: "echo_tool",
    description: "Echo text.",
    schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  tool("plain", "Returns a string."),
  tool("picture", "Returns an image."),
  tool("loader", "Activates hidden."),
  tool("hidden", "Deferred tool.", { deferred: true }),
  tool("boom_tool", "Throws."),
  tool("bad_tool", "Returns nothing."),
  tool("wait", "Waits for the user.", { interactive: true }),
  tool("nested", "Calls read through the host."),
  {
    type: "subscribe",
    events: ["turn_end", "session_start"],
    intercept: ["before_agent_start", "tool_call", "turn_start", "assistant_message"],
  },
  { type: "ready" },
];

const text = (t: string) => [{ type: "text", text: t }];
const response = (id: string, fields: object) => ({ type: "command_response", id, ...fields });
const invoke = (id: string, name: string, args = "") => ({ type: "command_invoked", id, name, args });
const callTool = (id: string, name: string, args: object = {}) => ({ type: "tool_call", id, name, args });
const intercept = (id: string, event: string, fields: object = {}) => ({ type: "event_intercept", id, event, ...fields });

const runtimes = [
  { runtime: "Node (bundled)", start: (args: string[]) => startDriver(process.execPath, [bundle, ...args]) },
  { runtime: "Bun", start: (args: string[]) => startDriver(bun, [fixture, ...args]) },
];

const WAITING = (id: string) => ({ type: "panel_render", panel_id: `ask-${id}`, title: "Question", lines: ["press enter"] });
const reply = (id: string, fields: object = {}) => ({ type: "event_intercept_response", id, ...fields });

/** Sends `frame` and expects exactly `expected` as the next frames, in order. */
async function exchange(d: ExtDriver, frame: object, ...expected: object[]): Promise<void> {
  d.send(frame);
  for (const want of expected) expect(await d.next()).toEqual(want);
}

/** stderr and stdout are separate pipes: a log line written before a reply may be read after it. */
async function expectLogged(d: ExtDriver, text: string, timeoutMs = 2_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !d.stderr().includes(text) && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(d.stderr()).toContain(text);
}

const resultsFor = (d: ExtDriver, id: string) => d.frames.filter((f) => f.id === id && f.type === "tool_result");

describe.each(runtimes)("TypeScript SDK on $runtime", ({ start }) => {
  /** Starts the fixture, completes the handshake and returns the frames from hello_ack to ready. */
  async function connect(ack: object = ACK, args: string[] = []): Promise<{ d: ExtDriver; registrations: Frame[] }> {
    const d = start(args);
    expect(await d.next()).toEqual(HELLO);
    d.send(ack);
    const registrations: Frame[] = [];
    for (;;) {
      const frame = await d.next();
      registrations.push(frame);
      if (frame.type === "ready") break;
    }
    // onHello's notify was held until the registrations were out.
    expect(await d.next()).toEqual({ type: "notify", level: "info", message: "hello anthropic/claude-test" });
    return { d, registrations };
  }

  // Processes started by one test; each ends after its test.
  const started: ExtDriver[] = [];
  afterEach(async () => {
    for (const d of started.splice(0)) {
      await d.close(500);
      expect(d.invalidLines).toEqual([]); // nothing but protocol frames on stdout
      expect(d.invalidFrames).toEqual([]); // and every frame valid by the protocol schemas
    }
  });
  const fresh = async (ack: object = ACK, args: string[] = []) => {
    const session = await connect(ack, args);
    started.push(session.d);
    return session;
  };

  describe("handshake", () => {
    it("sends hello first, then after hello_ack the registrations in order, one subscribe, and ready", async () => {
      const { d, registrations } = await fresh();
      expect(registrations).toEqual(REGISTRATIONS);
      expect(d.frames[0]).toEqual(HELLO);
    });

    it("answers a shutdown that comes before hello_ack and exits", async () => {
      const d = start([]);
      started.push(d);
      expect(await d.next()).toEqual(HELLO);
      await exchange(d, { type: "shutdown" }, { type: "shutdown_ack" });
      expect(await d.exited).toEqual({ code: 0, signal: null });
    });
  });

  // One extension process serves the tests below in turn (request ids are unique per test).
  describe("serving requests", () => {
    let d: ExtDriver;
    beforeAll(async () => {
      d = (await connect()).d;
    });
    afterAll(async () => {
      await d.close(500);
      expect(d.invalidLines).toEqual([]);
      expect(d.invalidFrames).toEqual([]);
    });
    const ex = (frame: object, ...expected: object[]) => exchange(d, frame, ...expected);

    describe("command_invoked", () => {
      it("onHello saw the host info from hello_ack and registered a command", async () => {
        await ex(invoke("h1", "cwd"), response("h1", { action: "display", display: "/work/project" }));
        const host = {
          protocolVersion: 1,
          zotVersion: "0.1.0",
          provider: "anthropic",
          model: "claude-test",
          cwd: "/work/project",
          extensionDir: "/zot/extensions/ts-sdk-fixture",
          dataDir: "/zot/extensions/ts-sdk-fixture",
          capabilities: ["call_tool"],
        };
        await ex(invoke("h2", "host"), response("h2", { action: "display", display: JSON.stringify(host) }));
      });

      it("answers with each response action", async () => {
        await ex(invoke("c1", "echo", "hi there"), response("c1", { action: "display", display: "echo: hi there" }));
        await ex(invoke("c2", "Shout", "loud"), response("c2", { action: "insert", insert: "LOUD" }));
        await ex(invoke("c3", "ask", "help"), response("c3", { action: "prompt", prompt: "Please help" }));
        await ex(invoke("c4", "ask"), response("c4", { action: "prompt", prompt: "Please ", error: "nothing to ask" }));
        await ex(invoke("c5", "quiet"), response("c5", { action: "noop" }));
        await ex(
          invoke("c6", "skill", "developer:commit"),
          response("c6", { action: "tool_prompt", prompt: "and push", tool_name: "skill", tool_args: { name: "developer:commit" } }),
        );
        await ex(
          invoke("c7", "panel"),
          response("c7", {
            action: "open_panel",
            open_panel: { id: "scratch", title: "Scratch", lines: ["one", "two"], footer: "esc close" },
          }),
        );
      });

      it("matches command names case-insensitively and answers unknown commands with an error", async () => {
        await ex(invoke("k1", "shout", "x"), response("k1", { action: "insert", insert: "X" }));
        await ex(invoke("k2", "nope"), response("k2", { action: "noop", error: "no handler for /nope" }));
      });

      it("pushes notify, clear_notes and submit frames from a handler, before its response", async () => {
        await ex(
          invoke("n1", "notes", "x"),
          { type: "notify", level: "success", message: "noted x" },
          { type: "clear_notes" },
          { type: "submit", text: "submitted x" },
          response("n1", { action: "noop" }),
        );
      });
    });

    describe("tool_call", () => {
      it("replies with text, string, image and error results", async () => {
        await ex(callTool("t1", "echo_tool", { text: "hello" }), { type: "tool_result", id: "t1", content: text("hello") });
        await ex(callTool("t2", "plain"), { type: "tool_result", id: "t2", content: text("just a string") });
        await ex(callTool("t3", "picture"), {
          type: "tool_result",
          id: "t3",
          content: [...text("a picture"), { type: "image", mime_type: "image/png", data: "aGk=" }],
        });
        await ex(callTool("t4", "missing"), {
          type: "tool_result",
          id: "t4",
          content: text('no handler for tool "missing"'),
          is_error: true,
        });
      });

      it("a loader tool activates a deferred tool, which then runs", async () => {
        await ex(callTool("l1", "loader"), {
          type: "tool_result",
          id: "l1",
          content: text("Activated: hidden"),
          activate_tools: ["hidden"],
        });
        await ex(callTool("l2", "hidden"), { type: "tool_result", id: "l2", content: text("hidden ran") });
      });

      it("a slow tool does not hold up a command", async () => {
        await ex(callTool("s1", "wait"), WAITING("s1"));
        await ex(invoke("s2", "echo", "meanwhile"), response("s2", { action: "display", display: "echo: meanwhile" }));
        expect(resultsFor(d, "s1")).toEqual([]);
        await ex({ type: "tool_cancel", id: "s1" }, { type: "notify", level: "warn", message: "wait s1 aborted: tool_cancel" });
      });
    });

    describe("tool_cancel", () => {
      it("aborts the handler's signal and sends no result for the abandoned call", async () => {
        await ex(callTool("x1", "wait"), WAITING("x1"));
        await ex({ type: "tool_cancel", id: "x1" }, { type: "notify", level: "warn", message: "wait x1 aborted: tool_cancel" });
        // The handler returned right after its notify; a result would come before this response.
        await ex(invoke("x2", "echo", "after"), response("x2", { action: "display", display: "echo: after" }));
        expect(resultsFor(d, "x1")).toEqual([]);
      });

      it("ignores a cancel for an unknown or finished call", async () => {
        await ex(callTool("y1", "plain"), { type: "tool_result", id: "y1", content: text("just a string") });
        d.send({ type: "tool_cancel", id: "y1" });
        d.send({ type: "tool_cancel", id: "never" });
        await ex(invoke("y2", "echo", "still here"), response("y2", { action: "display", display: "echo: still here" }));
      });
    });

    describe("a handler that throws", () => {
      it("becomes an error response or error result, and the extension keeps serving", async () => {
        await ex(invoke("b1", "boom"), response("b1", { action: "noop", error: "/boom failed: kaboom" }));
        await ex(
          invoke("b2", "bad"),
          response("b2", {
            action: "noop",
            error:
              "/bad failed: returned a number without an action; return prompt(), display(), insert(), noop(), openPanel() or toolPrompt()",
          }),
        );
        await ex(callTool("b3", "boom_tool"), {
          type: "tool_result",
          id: "b3",
          content: text("boom_tool failed: tool kaboom"),
          is_error: true,
        });
        await ex(callTool("b4", "bad_tool"), {
          type: "tool_result",
          id: "b4",
          content: text(
            "bad_tool failed: returned undefined without a content array; return textResult(), errorResult(), imageResult() or a string",
          ),
          is_error: true,
        });
        await ex(invoke("b5", "echo", "alive"), response("b5", { action: "display", display: "echo: alive" }));
        await expectLogged(d, "/boom failed: Error: kaboom");
      });
    });

    describe("event_intercept", () => {
      it("before_agent_start replaces the system prompt, or keeps it when the interceptor returns nothing", async () => {
        const base = { session_id: "s1", agent_run_id: "r1", cwd: "/w", provider: "anthropic", model: "opus" };
        await ex(
          intercept("i1", "before_agent_start", { ...base, system_prompt: "You are zot." }),
          reply("i1", { system_prompt: "You are zot.\n[fixture opus]" }),
        );
        await ex(intercept("i2", "before_agent_start", { ...base, system_prompt: "KEEP this" }), reply("i2"));
      });

      it("tool_call blocks, rewrites args, allows, and allows when the interceptor throws", async () => {
        const call = (id: string, tool_name: string, tool_args: object) =>
          intercept(id, "tool_call", { tool_id: "x", tool_name, tool_args });
        await ex(call("i3", "bash", { command: "rm -rf /" }), reply("i3", { block: true, reason: "refused: rm -rf" }));
        await ex(call("i4", "bash", { command: "ls" }), reply("i4", { modified_args: { command: "echo GUARDED: ls" } }));
        await ex(call("i5", "read", { path: "a" }), reply("i5"));
        await ex(call("i6", "explode", {}), reply("i6"));
        await expectLogged(d, "tool_call interceptor failed, allowing unchanged");
      });

      it("turn_start blocks over the limit and allows below it", async () => {
        await ex(intercept("i7", "turn_start", { step: 6 }), reply("i7", { block: true, reason: "step 6 is over the limit" }));
        await ex(intercept("i8", "turn_start", { step: 1 }), reply("i8"));
      });

      it("assistant_message replaces text, blocks, or passes it through; unknown events are allowed", async () => {
        await ex(intercept("i9", "assistant_message", { text: "key: SECRET" }), reply("i9", { replace_text: "key: [redacted]" }));
        await ex(
          intercept("i10", "assistant_message", { text: "BLOCK ME" }),
          reply("i10", { block: true, reason: "blocked by fixture" }),
        );
        await ex(intercept("i11", "assistant_message", { text: "fine" }), reply("i11"));
        await ex(intercept("i12", "some_future_event"), reply("i12"));
      });
    });

    describe("event", () => {
      it("delivers subscribed events to their handlers in arrival order; a failing handler harms nothing", async () => {
        d.send({ type: "event", event: "session_start", session_id: "s1", cwd: "/w", sequence: 1 });
        d.send({ type: "event", event: "turn_end", stop: "end_turn", sequence: 2 });
        d.send({ type: "event", event: "unknown_future_event", sequence: 3 });
        expect(await d.next()).toEqual({ type: "notify", level: "info", message: "session_start s1" });
        expect(await d.next()).toEqual({ type: "notify", level: "info", message: "turn_end end_turn #2" });
        await ex(invoke("e1", "echo", "ok"), response("e1", { action: "display", display: "echo: ok" }));
        await expectLogged(d, "second turn_end handler fails");
      });
    });

    describe("panels", () => {
      it("routes panel_key to the panel's handler and panel_close to its close handler", async () => {
        await ex(
          { type: "panel_key", panel_id: "scratch", key: "down" },
          { type: "panel_render", panel_id: "scratch", title: "Scratch", lines: ["down:"] },
        );
        await ex(
          { type: "panel_key", panel_id: "scratch", key: "rune", text: "x" },
          { type: "panel_render", panel_id: "scratch", title: "Scratch", lines: ["rune:x"] },
        );
        d.send({ type: "panel_key", panel_id: "other", key: "up" });
        await ex({ type: "panel_close", panel_id: "scratch" }, { type: "notify", level: "info", message: "scratch closed" });
      });
    });

    describe("call_tool", () => {
      const requested = async (fields: object): Promise<string> => {
        const frame = await d.next();
        expect(frame).toEqual({ type: "call_tool", id: expect.any(String), name: "read", ...fields });
        return frame.id as string;
      };

      it("a tool handler's call carries parent_id and resolves with the host's result", async () => {
        d.send(callTool("p1", "nested", { path: "a.txt" }));
        const id = await requested({ args: { path: "a.txt" }, parent_id: "p1" });
        const result = { name: "read", content: text("A"), isError: true, truncated: true };
        await ex(
          { type: "tool_result", id, name: "read", content: text("A"), is_error: true, truncated: true },
          { type: "tool_result", id: "p1", content: text(JSON.stringify(result)) },
        );
      });

      it("a command's call has no parent_id", async () => {
        d.send(invoke("p2", "call", "b.txt"));
        const id = await requested({ args: { path: "b.txt" } });
        const result = { name: "read", content: text("B"), isError: false, truncated: false };
        await ex(
          { type: "tool_result", id, name: "read", content: text("B"), is_error: false },
          response("p2", { action: "display", display: JSON.stringify(result) }),
        );
      });

      it("sends call_tool_cancel and fails the call when it times out", async () => {
        d.send(callTool("p3", "nested", { path: "slow", timeoutMs: 50 }));
        const id = await requested({ args: { path: "slow" }, parent_id: "p3" });
        expect(await d.next()).toEqual({ type: "call_tool_cancel", id });
        expect(await d.next()).toEqual({
          type: "tool_result",
          id: "p3",
          content: text("timeout: call_tool read: no result within 50 ms"),
          is_error: true,
        });
      });

      it("cancelling the parent tool cancels its outstanding call", async () => {
        d.send(callTool("p4", "nested", { path: "x" }));
        const id = await requested({ args: { path: "x" }, parent_id: "p4" });
        await ex({ type: "tool_cancel", id: "p4" }, { type: "call_tool_cancel", id });
        await ex(invoke("p5", "echo", "after"), response("p5", { action: "display", display: "echo: after" }));
        expect(resultsFor(d, "p4")).toEqual([]);
      });
    });

    describe("bad input from the host", () => {
      it("logs malformed and unknown frames, answers an invalid request with an error, and keeps serving", async () => {
        d.sendRaw("this is not json\n");
        d.send({ type: "mystery_frame", id: "m1" });
        await ex(
          { type: "tool_call", id: "m2", name: "echo_tool", args: "not an object" },
          {
            type: "tool_result",
            id: "m2",
            content: text("invalid tool_call frame: tool_call: args: args must be a JSON object"),
            is_error: true,
          },
        );
        d.sendRaw(`${JSON.stringify(invoke("m3", "echo", "crlf"))}\r\n`);
        expect(await d.next()).toEqual(response("m3", { action: "display", display: "echo: crlf" }));
        await expectLogged(d, "invalid JSON");
        await expectLogged(d, 'unknown type "mystery_frame"');
      });
    });
  });

  describe("other hosts and guards", () => {
    it("interceptToolCall (the simple guard) blocks or allows", async () => {
      const { d } = await fresh(ACK, ["--simple-guard"]);
      const call = (id: string, command: string) =>
        intercept(id, "tool_call", { tool_id: "x", tool_name: "bash", tool_args: { command } });
      await exchange(d, call("i1", "rm -rf /"), reply("i1", { block: true, reason: "refused: rm -rf" }));
      await exchange(d, call("i2", "ls"), reply("i2"));
    });

    it("callTool refuses at once, sending nothing, when hello_ack lacks the call_tool capability", async () => {
      const { capabilities: _omitted, ...olderHost } = ACK;
      const { d } = await fresh(olderHost);
      await exchange(
        d,
        invoke("c1", "call", "c.txt"),
        response("c1", {
          action: "display",
          display: "unsupported: call_tool read: the host does not support call_tool (no capability in hello_ack)",
        }),
      );
      expect(d.frames.filter((f) => f.type === "call_tool")).toEqual([]);
    });
  });

  describe("shutdown and EOF", () => {
    it("shutdown aborts running handlers (their cleanup frames go first), then shutdown_ack, then exit", async () => {
      const { d } = await fresh();
      await exchange(d, callTool("t1", "wait"), WAITING("t1"));
      await exchange(
        d,
        { type: "shutdown" },
        { type: "notify", level: "warn", message: "wait t1 aborted: shutdown" },
        { type: "shutdown_ack" },
      );
      expect(await d.exited).toEqual({ code: 0, signal: null });
      expect(d.frames.at(-1)).toEqual({ type: "shutdown_ack" });
      expect(resultsFor(d, "t1")).toEqual([]);
    });

    it("EOF on stdin aborts running handlers and exits", async () => {
      const { d } = await fresh();
      await exchange(d, callTool("t1", "wait"), WAITING("t1"));
      expect(await d.close(5_000)).toEqual({ code: 0, signal: null });
      await expectLogged(d, "wait t1 aborted: eof");
      expect(resultsFor(d, "t1")).toEqual([]);
    });
  });
});

// The same SDK in this process, on injected streams: what a runtime-agnostic embedding sees.
describe("the SDK on injected streams", () => {
  function harness() {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const queue: Frame[] = [];
    const waiters: Array<(frame: Frame) => void> = [];
    let buffered = "";
    stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const frame = JSON.parse(buffered.slice(0, nl)) as Frame;
        buffered = buffered.slice(nl + 1);
        const waiter = waiters.shift();
        if (waiter) waiter(frame);
        else queue.push(frame);
      }
    });
    let log = "";
    stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    const ext = createExtension({ name: "inproc", version: "0.0.1", stdin, stdout, stderr });
    return {
      ext,
      stdin,
      log: () => log,
      send: (frame: object) => stdin.write(`${JSON.stringify(frame)}\n`),
      next: (): Promise<Frame> => {
        const frame = queue.shift();
        return frame ? Promise.resolve(frame) : new Promise((resolve) => waiters.push(resolve));
      },
    };
  }

  it("run() resolves with how the run ended instead of exiting the process", async () => {
    const h = harness();
    h.ext.command("x", "", () => noop());
    const run = h.ext.run();
    expect(await h.next()).toMatchObject({ type: "hello", name: "inproc" });
    h.send({ type: "hello_ack", protocol_version: 1 });
    expect(await h.next()).toEqual({ type: "register_command", name: "x", description: "" });
    expect(await h.next()).toEqual({ type: "ready" });
    h.send({ type: "shutdown" });
    expect(await h.next()).toEqual({ type: "shutdown_ack" });
    await expect(run).resolves.toBe("shutdown");
    await expect(h.ext.run()).rejects.toThrow("run() may only be called once");

    const eof = harness();
    const eofRun = eof.ext.run();
    await eof.next();
    eof.stdin.end();
    await expect(eofRun).resolves.toBe("eof");
  });

  it("replaces a tool result over the frame limit with an error result naming the limit", async () => {
    const h = harness();
    h.ext.tool("big", { description: "too big" }, () => textResult("x".repeat(MAX_FRAME_BYTES)));
    void h.ext.run();
    await h.next();
    h.send({ type: "hello_ack", protocol_version: 1 });
    await h.next();
    await h.next();
    h.send({ type: "tool_call", id: "t1", name: "big", args: {} });
    const frame = await h.next();
    expect(frame).toMatchObject({ type: "tool_result", id: "t1", is_error: true });
    expect(JSON.stringify(frame)).toMatch(/big failed: refusing to send a tool_result frame of \d+ bytes: the limit is 4194304/);
    h.stdin.end();
  });

  it("rejects bad input from extension code with clear errors", async () => {
    const h = harness();
    expect(() => h.ext.notify("loud" as "info", "x")).toThrow("notify: level must be one of info, success, warn, error");
    expect(() => h.ext.command("two words", "", () => noop())).toThrow('command name "two words" must not contain whitespace');
    h.ext.command("Same", "", () => noop());
    expect(() => h.ext.command("same", "", () => noop())).toThrow("command /same is already registered (as /Same)");
    expect(() => h.ext.tool("t", { description: "d", schema: [] as unknown as Record<string, unknown> }, () => "")).toThrow(
      "tool t: definition.schema must be a JSON Schema object",
    );
    expect(() => createExtension({ name: "" })).toThrow("name must be a non-empty string");
    const early = h.ext.callTool("read", {});
    await expect(early).rejects.toThrow(CallToolError);
    await expect(early).rejects.toMatchObject({ code: "unsupported" });
    await expect(h.ext.callTool("read", [] as unknown as Record<string, unknown>)).rejects.toMatchObject({ code: "invalid" });
  });

  it("an async onHello can callTool and register from its result before registrations go out", async () => {
    const h = harness();
    h.ext.onHello(async () => {
      const config = await h.ext.callTool("read", { path: "config.json" });
      h.ext.command(config.content[0]?.type === "text" ? config.content[0].text : "?", "from config", () => noop());
    });
    void h.ext.run();
    await h.next();
    h.send({ type: "hello_ack", protocol_version: 1, capabilities: ["call_tool"] });
    expect(await h.next()).toEqual({ type: "call_tool", id: "call-1", name: "read", args: { path: "config.json" } });
    h.send({ type: "tool_result", id: "call-1", name: "read", content: [{ type: "text", text: "configured" }] });
    expect(await h.next()).toEqual({ type: "register_command", name: "configured", description: "from config" });
    expect(await h.next()).toEqual({ type: "ready" });
    h.stdin.end();
  });

  it("sends registrations made after ready at once, and refuses new subscriptions then", async () => {
    const h = harness();
    h.ext.on("turn_end", () => {});
    void h.ext.run();
    await h.next();
    h.send({ type: "hello_ack", protocol_version: 1 });
    expect(await h.next()).toEqual({ type: "subscribe", events: ["turn_end"] });
    expect(await h.next()).toEqual({ type: "ready" });
    h.ext.command("later", "added after ready", () => noop());
    expect(await h.next()).toEqual({ type: "register_command", name: "later", description: "added after ready" });
    h.ext.on("turn_end", () => {}); // already subscribed: fine
    expect(() => h.ext.on("turn_start", () => {})).toThrow("subscriptions are announced once, before ready");
    expect(() => h.ext.interceptTurnStart(() => undefined)).toThrow("subscriptions are announced once, before ready");
    h.stdin.end();
  });
});
