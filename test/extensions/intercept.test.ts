import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { readRecord, sandbox, startHost, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

/**
 * An interceptor whose answer is computed by `answer` (a JS expression over `msg`); undefined
 * means never answer. It records what it was asked.
 */
function interceptor(parent: string, name: string, intercept: string[], answer: string) {
  const record = join(sb.scratch, `${name}.jsonl`);
  const dir = writeExtension(parent, name, { name, record, register: [{ type: "subscribe", intercept }],
    on: { event_intercept: `const r = (${answer}); if (r !== undefined) ctx.send({type:"event_intercept_response",id:msg.id,...r})` } });
  return { dir, asked: () => readRecord(record).filter((f) => f.type === "event_intercept") };
}

const call = (args: Record<string, unknown> = { command: "rm -rf /tmp/foo" }) => ({ toolId: "call-1", toolName: "bash", toolArgs: args });

describe("event_intercept: an interceptor that keeps timing out", () => {
  it("is no longer consulted after 3 timeouts in a row (allow at once, one warning naming it), and again after a reload", async () => {
    const deaf = interceptor(sb.globalDir, "deaf", ["tool_call", "turn_start"], "undefined");
    const guard = interceptor(sb.globalDir, "guard", ["tool_call"], `{modified_args: {...msg.tool_args, guarded: true}}`);
    t = await startHost(sb, { timeouts: { intercept: 200 } });
    const timed = async () => {
      const started = Date.now();
      const decision = await t!.host.interceptToolCall(call({ n: 1 }));
      return { decision, ms: Date.now() - started };
    };
    // A turn_start timeout counts too: they are all the same extension's silence.
    expect(await t.host.interceptTurnStart(1)).toEqual({ block: false });
    for (let i = 0; i < 2; i++) expect((await timed()).ms).toBeGreaterThanOrEqual(190);
    // Allowed at once: the next calls are not put to it at all (it was asked 3 times).
    for (let i = 0; i < 3; i++) {
      expect((await timed()).decision).toEqual({ block: false, args: { n: 1, guarded: true }, rewrittenBy: ["guard"] });
    }
    expect(deaf.asked()).toHaveLength(3);
    expect(guard.asked()).toHaveLength(5);
    const notes = t.of("ext_notify").filter((n) => n.extension === "deaf").map((n) => n.message);
    expect(notes).toEqual([
      "turn_start interception did not answer within 200 ms; allowed",
      "tool_call interception did not answer within 200 ms; allowed",
      "tool_call interception did not answer within 200 ms; allowed",
      "did not answer 3 interception requests in a row; it is no longer consulted for interception in this session "
        + "(what it would intercept is allowed at once); /reload-ext consults it again",
    ]);
    expect(await t.host.interceptTurnStart(2)).toEqual({ block: false });
    expect(deaf.asked()).toHaveLength(3);

    await t.host.reload();
    expect((await timed()).ms).toBeGreaterThanOrEqual(190);
    expect(deaf.asked()).toHaveLength(4);
  });

  it("an answer in between resets the count", async () => {
    const flaky = interceptor(sb.globalDir, "flaky", ["tool_call"], `(msg.tool_args.n % 3 === 0 ? {} : undefined)`);
    t = await startHost(sb, { timeouts: { intercept: 150 } });
    for (let n = 1; n <= 7; n++) await t.host.interceptToolCall(call({ n }));
    expect(flaky.asked()).toHaveLength(7);
    expect(t.of("ext_notify").some((e) => e.message.includes("no longer consulted"))).toBe(false);
  });
});

describe("event_intercept: tool_call", () => {
  it("a block refuses the call with its reason; later interceptors are not consulted", async () => {
    const a = interceptor(sb.globalDir, "a", ["tool_call"], `{block: true, reason: "refused: matches danger pattern"}`);
    const b = interceptor(sb.globalDir, "b", ["tool_call"], `{block: false}`);
    t = await startHost(sb);
    expect(await t.host.interceptToolCall(call())).toEqual({ block: true, reason: "refused: matches danger pattern", args: { command: "rm -rf /tmp/foo" } });
    expect(a.asked()).toEqual([{ type: "event_intercept", id: expect.any(String), event: "tool_call", tool_id: "call-1", tool_name: "bash", tool_args: { command: "rm -rf /tmp/foo" } }]);
    expect(b.asked()).toEqual([]);
  });

  it("modified_args chain: each interceptor sees the previous rewrite; a non-object rewrite is ignored with a warning", async () => {
    const prefix = `msg.tool_args.command.startsWith("echo GUARDED: ") ? msg.tool_args.command : "echo GUARDED: " + msg.tool_args.command`;
    interceptor(sb.globalDir, "a", ["tool_call"], `{modified_args: {...msg.tool_args, command: ${prefix}}}`);
    interceptor(sb.globalDir, "b", ["tool_call"], `{modified_args: "not an object"}`);
    const c = interceptor(sb.globalDir, "c", ["tool_call"], `{modified_args: {...msg.tool_args, extra: true}}`);
    t = await startHost(sb);
    expect(await t.host.interceptToolCall(call({ command: "ls" }))).toEqual({ block: false, args: { command: "echo GUARDED: ls", extra: true },
      rewrittenBy: ["a", "c"] });
    expect(c.asked()[0]!.tool_args).toEqual({ command: "echo GUARDED: ls" });
    expect(t.of("ext_notify")).toEqual([{ type: "ext_notify", extension: "b", level: "warn", message: expect.stringMatching(/modified_args must be a JSON object/) }]);
  });

  it("block wins over modified_args in the same answer, and keeps the last effective args", async () => {
    interceptor(sb.globalDir, "a", ["tool_call"], `{modified_args: {command: "safe"}}`);
    interceptor(sb.globalDir, "b", ["tool_call"], `{block: true, modified_args: {command: "ignored"}}`);
    t = await startHost(sb);
    expect(await t.host.interceptToolCall(call())).toEqual({ block: true, reason: 'blocked by extension "b"', args: { command: "safe" }, rewrittenBy: ["a"] });
  });

  it("explicit extensions are consulted first", async () => {
    const explicit = interceptor(sb.scratch, "z-explicit", ["tool_call"], `{modified_args: {order: ["explicit"]}}`);
    interceptor(sb.projectDir, "a-project", ["tool_call"], `{modified_args: {order: [...msg.tool_args.order, "project"]}}`);
    interceptor(sb.globalDir, "a-global", ["tool_call"], `{modified_args: {order: [...msg.tool_args.order, "global"]}}`);
    t = await startHost(sb, { explicit: [explicit.dir] });
    expect((await t.host.interceptToolCall(call())).args).toEqual({ order: ["explicit", "project", "global"] });
  });

  it("a timeout or a crash means allow, unchanged (fail-open), with a warning", async () => {
    interceptor(sb.globalDir, "slow", ["tool_call"], `undefined`);
    writeExtension(sb.globalDir, "crash", { name: "crash", register: [{ type: "subscribe", intercept: ["tool_call"] }], on: { event_intercept: "process.exit(4)" } });
    t = await startHost(sb, { timeouts: { intercept: 200 } });
    expect(await t.host.interceptToolCall(call({ command: "ls" }))).toEqual({ block: false, args: { command: "ls" } });
    const warnings = Object.fromEntries(t.of("ext_notify").map((n) => [n.extension, n.message]));
    expect(warnings).toEqual({
      crash: expect.stringMatching(/^tool_call interception .*; allowed$/),
      slow: "tool_call interception did not answer within 200 ms; allowed",
    });
  });
  it("a malformed reply means allow at once, with a warning naming the error", async () => {
    interceptor(sb.globalDir, "typo", ["tool_call"], `{block: "yes"}`);
    // A long deadline: only settling on the invalid reply lets the test finish.
    t = await startHost(sb, { timeouts: { intercept: 600_000 } });
    expect(await t.host.interceptToolCall(call({ command: "ls" }))).toEqual({ block: false, args: { command: "ls" } });
    expect(t.of("ext_notify").map((n) => [n.extension, n.message])).toEqual([
      ["typo", expect.stringMatching(/^tool_call interception event_intercept_response: block: .*; allowed$/)]]);
  });
});

describe("event_intercept: turn_start and assistant_message", () => {
  it("turn_start can be blocked with a reason shown to the user", async () => {
    const gate = interceptor(sb.globalDir, "gate", ["turn_start"], `msg.step > 2 ? {block: true, reason: "outside business hours"} : {}`);
    t = await startHost(sb);
    expect(await t.host.interceptTurnStart(1)).toEqual({ block: false });
    expect(await t.host.interceptTurnStart(3)).toEqual({ block: true, reason: "outside business hours", extension: "gate" });
    expect(gate.asked().map((f) => [f.event, f.step])).toEqual([["turn_start", 1], ["turn_start", 3]]);
  });

  it("assistant_message rewrites chain through replace_text; a block suppresses the message", async () => {
    interceptor(sb.globalDir, "a", ["assistant_message"], `{replace_text: msg.text.replaceAll("SECRET", "[redacted]")}`);
    interceptor(sb.globalDir, "b", ["assistant_message"], `msg.text.includes("forbidden") ? {block: true, reason: "nope"} : {replace_text: msg.text + "!"}`);
    t = await startHost(sb);
    expect(t.host.interceptsAssistantMessage()).toBe(true);
    expect(await t.host.interceptAssistantMessage("the key is SECRET")).toEqual({ block: false, text: "the key is [redacted]!" });
    expect(await t.host.interceptAssistantMessage("forbidden SECRET")).toEqual({ block: true, reason: "nope", extension: "b", text: "forbidden [redacted]" });
  });

  it("without an assistant_message interceptor text may stream live", async () => {
    interceptor(sb.globalDir, "a", ["tool_call"], `{}`);
    t = await startHost(sb);
    expect(t.host.interceptsAssistantMessage()).toBe(false);
    expect(await t.host.interceptAssistantMessage("hello")).toEqual({ block: false, text: "hello" });
  });
});

describe("event_intercept: legacy interceptors (tool_call, turn_start, assistant_message)", () => {
  it("start their deadline once the request is written, not when it is queued behind other frames", async () => {
    // A "stall" event makes the extension stop reading for STALL_MS; a 512 KiB event then fills the
    // pipe, so each interception request waits in the queue far longer than the deadline.
    const STALL_MS = 800;
    // A legacy extension too (it never sends ready), so both readings of "legacy" are covered.
    const record = join(sb.scratch, "slow.jsonl");
    writeExtension(sb.globalDir, "slow", { name: "slow", record, legacy: true,
      register: [{ type: "subscribe", events: ["user_prompt_submit"], intercept: ["tool_call", "turn_start", "assistant_message"] }],
      on: {
        event: `if (msg.text === "stall") { process.stdin.pause(); ctx.later(${STALL_MS}, () => process.stdin.resume()); }`,
        event_intercept: `ctx.send({type:"event_intercept_response",id:msg.id,block:true,reason:"answered after the queue: " + msg.event})`,
      } });
    t = await startHost(sb, { timeouts: { intercept: 300, write: 10_000 } });
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", ready: "auto" });
    const queuedBehindAStall = async <T>(intercept: () => Promise<T>) => {
      const stalls = () => readRecord(record).filter((f) => f.type === "event" && f.text === "stall").length;
      const before = stalls();
      t!.bus.lifecycle({ type: "user_prompt_submit", text: "stall" });
      await waitFor(() => stalls() > before, "the extension to stop reading");
      t!.bus.lifecycle({ type: "user_prompt_submit", text: "q".repeat(512 * 1024) });
      const started = Date.now();
      const decision = await intercept();
      return { decision, ms: Date.now() - started };
    };

    const toolCall = await queuedBehindAStall(() => t!.host.interceptToolCall(call()));
    expect(toolCall.decision).toMatchObject({ block: true, reason: "answered after the queue: tool_call" });
    expect(toolCall.ms).toBeGreaterThan(500);
    const turnStart = await queuedBehindAStall(() => t!.host.interceptTurnStart(1));
    expect(turnStart.decision).toMatchObject({ block: true, reason: "answered after the queue: turn_start" });
    expect(turnStart.ms).toBeGreaterThan(500);
    const message = await queuedBehindAStall(() => t!.host.interceptAssistantMessage("hello"));
    expect(message.decision).toMatchObject({ block: true, reason: "answered after the queue: assistant_message" });
    expect(message.ms).toBeGreaterThan(500);
    expect(t.of("ext_notify")).toEqual([]);
  });
});

describe("System prompt replacement (before_agent_start)", () => {
  const input = (systemPrompt: string, signal?: AbortSignal) => ({
    sessionId: "session-123", agentRunId: "run-456", cwd: sb.cwd, provider: "anthropic", model: "claude-opus-4-7", systemPrompt, signal });

  it("runs serially in load order (explicit first), each extension receiving the previous result", async () => {
    const first = interceptor(sb.scratch, "first", ["before_agent_start"], `{system_prompt: msg.system_prompt + " +first"}`);
    const second = interceptor(sb.globalDir, "second", ["before_agent_start"], `{system_prompt: msg.system_prompt + " +second"}`);
    t = await startHost(sb, { explicit: [first.dir] });
    expect(await t.host.beforeAgentStart(input("base"))).toBe("base +first +second");
    expect(first.asked()).toEqual([{ type: "event_intercept", id: expect.any(String), event: "before_agent_start", session_id: "session-123",
      agent_run_id: "run-456", cwd: sb.cwd, provider: "anthropic", model: "claude-opus-4-7", system_prompt: "base" }]);
    expect(second.asked()[0]!.system_prompt).toBe("base +first");
  });

  it('"" removes the prompt; omission keeps it; block does not block startup', async () => {
    interceptor(sb.globalDir, "a", ["before_agent_start"], `{block: true}`);
    interceptor(sb.globalDir, "b", ["before_agent_start"], `{system_prompt: ""}`);
    t = await startHost(sb);
    expect(await t.host.beforeAgentStart(input("base"))).toBe("");
  });

  it("invalid values, oversized values, timeouts and crashes keep the current prompt and warn", async () => {
    interceptor(sb.globalDir, "a-number", ["before_agent_start"], `{system_prompt: 42}`);
    interceptor(sb.globalDir, "b-huge", ["before_agent_start"], `{system_prompt: "x".repeat(1024 * 1024)}`);
    interceptor(sb.globalDir, "c-silent", ["before_agent_start"], `undefined`);
    interceptor(sb.globalDir, "d-good", ["before_agent_start"], `{system_prompt: msg.system_prompt + " +good"}`);
    t = await startHost(sb, { timeouts: { intercept: 300 } });
    expect(await t.host.beforeAgentStart(input("base"))).toBe("base +good");
    expect(t.of("ext_notify").map((n) => [n.extension, n.message])).toEqual([
      ["a-number", "before_agent_start: system_prompt must be a string; prompt kept"],
      ["b-huge", expect.stringMatching(/system_prompt is 1048578 bytes encoded; the limit is 1048576; prompt kept/)],
      ["c-silent", "before_agent_start interception did not answer within 300 ms; prompt kept"]]);
    expect(readFileSync(extensionLogPath(sb.paths, "a-number"), "utf8")).toMatch(/must be a string/);
  });

  it("the deadline includes the request write: a blocked write closes that extension's pipe", async () => {
    writeExtension(sb.globalDir, "deaf", { name: "deaf", noRead: true, legacy: true, register: [{ type: "subscribe", intercept: ["before_agent_start"] }] });
    interceptor(sb.globalDir, "listener", ["before_agent_start"], `{system_prompt: msg.system_prompt.slice(0, 4) + " +listener"}`);
    // 2 MiB must reach the listener within the deadline too: leave room for a loaded machine.
    t = await startHost(sb, { timeouts: { intercept: 4000, write: 60_000 } });
    expect(await t.host.beforeAgentStart(input("base" + "p".repeat(2 * 1024 * 1024)))).toBe("base +listener");
    expect(t.host.reports().find((r) => r.name === "deaf")).toMatchObject({ status: "error",
      errors: [expect.stringMatching(/before_agent_start interception request could not be written within 4000 ms/)] });
  });

  it("cancellation commits nothing", async () => {
    interceptor(sb.globalDir, "a", ["before_agent_start"], `{system_prompt: "replaced"}`);
    interceptor(sb.globalDir, "b", ["before_agent_start"], `undefined`);
    t = await startHost(sb, { timeouts: { intercept: 5000 } });
    const controller = new AbortController();
    const pending = t.host.beforeAgentStart(input("base", controller.signal));
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toBe("base");
  });
});
