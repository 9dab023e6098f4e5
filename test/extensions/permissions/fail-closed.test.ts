// Fail-closed guards: with on_failure "block" (manifest, or the user's config.json), a timeout,
// crash or invalid answer from an interceptor refuses the action instead of allowing it.
// Timeouts are shrunk through the host's options; every guard is a real subprocess.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRecord, sandbox, startHost, writeExtension, type Sandbox } from "../helpers.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

const call = { toolId: "call-1", toolName: "bash", toolArgs: { command: "ls" } };
const refusedBy = (name: string) => ({ block: true, reason: `refused: guard ${name} did not answer`, args: call.toolArgs });

/** A guard intercepting `intercept` that answers with `answer` (a JS expression; undefined: never answers). */
function guard(name: string, intercept: string[], answer: string, manifest: Record<string, unknown> = {}) {
  const record = join(sb.scratch, `${name}.jsonl`);
  writeExtension(sb.globalDir, name, { name, record, register: [{ type: "subscribe", intercept }],
    on: { event_intercept: `const r = (${answer}); if (r !== undefined) ctx.send({type:"event_intercept_response",id:msg.id,...r})` } },
  manifest);
  return () => readRecord(record).filter((f) => f.type === "event_intercept");
}

const timed = async <T>(fn: () => Promise<T>) => {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
};

describe("on_failure: block", () => {
  it("a guard that times out blocks the call; one that keeps timing out is cut off and keeps refusing at once", async () => {
    const asked = guard("deaf", ["tool_call"], "undefined", { on_failure: "block" });
    const t = await startHost(sb, { timeouts: { intercept: 150 } });
    for (let i = 0; i < 3; i++) {
      const { value, ms } = await timed(() => t.host.interceptToolCall(call));
      expect(value).toEqual(refusedBy("deaf"));
      expect(ms).toBeGreaterThanOrEqual(140);
    }
    // Refused at once: the fourth call is not put to the guard at all.
    expect(await t.host.interceptToolCall(call)).toEqual(refusedBy("deaf"));
    expect(asked()).toHaveLength(3);
    expect(t.of("ext_notify").map((n) => n.message)).toEqual([
      "tool_call interception did not answer within 150 ms; refused (on_failure: block)",
      "tool_call interception did not answer within 150 ms; refused (on_failure: block)",
      "tool_call interception did not answer within 150 ms; refused (on_failure: block)",
      "did not answer 3 interception requests in a row; it is no longer consulted for interception in this session "
        + "(what it guards is refused at once: on_failure is block); /reload-ext consults it again",
    ]);
  });

  it("the default stays allow: the same silent guard without on_failure lets the call through", async () => {
    guard("deaf", ["tool_call"], "undefined");
    const t = await startHost(sb, { timeouts: { intercept: 150 } });
    expect(await t.host.interceptToolCall(call)).toEqual({ block: false, args: call.toolArgs });
    expect(t.of("ext_notify")[0]!.message).toBe("tool_call interception did not answer within 150 ms; allowed");
  });

  it("a Python guard that crashes blocks the call, and keeps blocking once it is gone", async () => {
    const dir = join(sb.globalDir, "py-guard");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "guard.py"), `#!/usr/bin/env python3
import json, sys
def emit(o):
    sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
emit({"type": "hello", "name": "py-guard", "version": "1.0.0", "capabilities": ["intercept"]})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello_ack":
        emit({"type": "subscribe", "intercept": ["tool_call"]}); emit({"type": "ready"})
    elif msg["type"] == "event_intercept":
        sys.exit(3)
    elif msg["type"] == "shutdown":
        emit({"type": "shutdown_ack"}); break
`);
    chmodSync(join(dir, "guard.py"), 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "py-guard", exec: "./guard.py", language: "python",
      permissions: { intercept: ["tool_call"] }, on_failure: { tool_call: "block" } }));
    const t = await startHost(sb);
    expect(await t.host.interceptToolCall(call)).toEqual(refusedBy("py-guard"));
    expect(t.host.reports()[0]!.running).toBe(false);
    expect(await t.host.interceptToolCall(call)).toEqual(refusedBy("py-guard"));
  });

  it("a guard that failed before it could subscribe still refuses what its manifest says it guards", async () => {
    writeExtension(sb.globalDir, "broken", { name: "broken", exitBeforeHello: 1 },
      { permissions: { intercept: ["tool_call"] }, on_failure: "block" });
    const t = await startHost(sb);
    expect(await t.host.interceptToolCall(call)).toEqual(refusedBy("broken"));
    // turn_start is neither subscribed nor declared: nothing to refuse.
    expect(await t.host.interceptTurnStart(1)).toEqual({ block: false });
  });

  it("an invalid answer from a fail-closed guard refuses; a valid block or allow is used as it is", async () => {
    guard("sloppy", ["tool_call"], `(msg.tool_args.command === "bad" ? {block: "yes"} : msg.tool_args.command === "args" ? {modified_args: 7} : {})`,
      { on_failure: "block" });
    const t = await startHost(sb);
    expect(await t.host.interceptToolCall({ ...call, toolArgs: { command: "bad" } })).toMatchObject({ block: true, reason: "refused: guard sloppy did not answer" });
    expect(await t.host.interceptToolCall({ ...call, toolArgs: { command: "args" } })).toMatchObject({ block: true, reason: "refused: guard sloppy did not answer" });
    expect(await t.host.interceptToolCall(call)).toEqual({ block: false, args: call.toolArgs });
  });

  it("turn_start and assistant_message guards refuse the turn and suppress the text", async () => {
    guard("deaf", ["turn_start", "assistant_message"], "undefined", { on_failure: "block" });
    const t = await startHost(sb, { timeouts: { intercept: 150 } });
    expect(await t.host.interceptTurnStart(1)).toEqual({ block: true, reason: "refused: guard deaf did not answer", extension: "deaf" });
    expect(await t.host.interceptAssistantMessage("hi")).toEqual({ block: true, reason: "refused: guard deaf did not answer", extension: "deaf", text: "hi" });
    expect(t.host.interceptsAssistantMessage()).toBe(true);
  });

  it("a before_agent_start guard that does not answer refuses every turn until a prompt pass it answers", async () => {
    const asked = guard("prompter", ["before_agent_start"], `(ctx.state.n = (ctx.state.n || 0) + 1) === 1 ? undefined : {system_prompt: "guarded"}`,
      { on_failure: { before_agent_start: "block" } });
    const t = await startHost(sb, { timeouts: { intercept: 150 } });
    const input = { sessionId: "s", agentRunId: "r", cwd: sb.cwd, provider: "anthropic", model: "m", systemPrompt: "base" };
    expect(await t.host.beforeAgentStart(input)).toBe("base");
    const refused = { block: true, reason: "refused: guard prompter did not answer (before_agent_start)", extension: "prompter" };
    expect(await t.host.interceptTurnStart(1)).toEqual(refused);
    expect(await t.host.interceptTurnStart(2)).toEqual(refused);
    expect(await t.host.beforeAgentStart(input)).toBe("guarded");
    expect(await t.host.interceptTurnStart(1)).toEqual({ block: false });
    expect(asked()).toHaveLength(2);
  });
});

describe("on_failure from the user's config.json", () => {
  it("wins over the manifest, either way, and a malformed setting is a warning", async () => {
    writeFileSync(sb.paths.config, JSON.stringify({ extensions: {
      relaxed: { on_failure: "allow" }, strict: { on_failure: { tool_call: "block" } }, typo: { on_failure: { tool_cal: "block" } } } }));
    guard("relaxed", ["tool_call"], "undefined", { on_failure: "block" });
    guard("strict", ["tool_call"], "undefined");
    guard("typo", ["turn_start"], "undefined");
    const t = await startHost(sb, { timeouts: { intercept: 150 } });
    // relaxed (allow by config) is asked first and allows; strict (block by config) then refuses.
    expect(await t.host.interceptToolCall(call)).toEqual(refusedBy("strict"));
    const reports = Object.fromEntries(t.host.reports().map((r) => [r.name, r]));
    expect(reports.relaxed!.interceptors).toEqual([{ event: "tool_call", on_failure: "allow", on_failure_from: "config", probe: null, latency_ms: null, rewrote: null, rewrites: 0, timeout_ms: 150, timeout_requested: false }]);
    expect(reports.strict!.interceptors).toEqual([{ event: "tool_call", on_failure: "block", on_failure_from: "config", probe: null, latency_ms: null, rewrote: null, rewrites: 0, timeout_ms: 150, timeout_requested: false }]);
    expect(reports.typo!.warnings).toEqual([expect.stringMatching(/^config\.json extensions\.typo\.on_failure: .*interceptable events.*; ignored/)]);
  });
});
