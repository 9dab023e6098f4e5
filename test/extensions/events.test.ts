import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LifecyclePayload } from "../../lib/events/index.ts";
import { eventFrame } from "../../lib/extensions/host/events.ts";
import { extensionLogPath } from "../../lib/paths.ts";
import { readRecord, sandbox, startHost, waitFor, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

const ALL: LifecyclePayload[] = [
  { type: "session_start" },
  { type: "user_prompt_submit", text: "hi", queued: true, image_count: 1 },
  { type: "turn_start", step: 1 },
  { type: "assistant_message", text: "hello" },
  { type: "tool_call", tool_id: "call-1", tool_name: "bash", tool_args: { command: "ls" } },
  { type: "turn_end", stop: "tool_use" },
  { type: "tool_confirmation_requested", tool_id: "call-1", tool_name: "bash", tool_preview: "ls" },
  { type: "permission_decision", tool_id: "call-1", tool_name: "bash", decision: "approved", source: "user", stage: "pre_execution" },
  { type: "tool_result", tool_id: "call-1", tool_name: "bash", tool_args: { command: "ls" }, status: "completed", executed: true,
    result: { content: [{ type: "text", text: "ok" }], is_error: false } },
  { type: "pre_compact", compaction_id: "c1", message_count: 10, token_estimate: 1000 },
  { type: "post_compact", compaction_id: "c1", message_count: 3, token_estimate: 200, status: "completed" },
  { type: "subagent_start", agent_id: "a1", agent_run_id: "r1", name: "a1" },
  { type: "subagent_stop", agent_id: "a1", agent_run_id: "r1", name: "a1", status: "failed", error: "boom" },
  { type: "session_end", reason: "shutdown" },
];

function subscriber(name: string, events: string[], intercept: string[] = []) {
  const record = join(sb.scratch, `${name}.jsonl`);
  writeExtension(sb.globalDir, name, { name, record, register: [{ type: "subscribe", events, intercept }] });
  return () => readRecord(record).filter((f) => f.type === "event");
}

describe("Lifecycle payloads", () => {
  it("all 14 lifecycle events reach a subscriber in order, with session_id, cwd and sequence", async () => {
    const all = subscriber("all", ALL.map((e) => e.type));
    t = await startHost(sb);
    for (const event of ALL) t.bus.lifecycle(event);
    const received = await waitFor(() => all().length === ALL.length && all(), "all events");
    received.forEach((frame, i) => {
      const { type, ...payload } = ALL[i]!;
      expect(frame).toEqual({ type: "event", event: type, ...payload, session_id: "session-1", cwd: sb.cwd, sequence: i + 1 });
    });
  });

  it("an extension gets only its subscriptions; sequence numbers span all notifications (gaps are normal)", async () => {
    const some = subscriber("some", ["turn_start", "turn_end", "made_up_event"]);
    t = await startHost(sb);
    for (const event of ALL) t.bus.lifecycle(event);
    t.bus.lifecycle({ type: "turn_start", step: 2 });
    const received = await waitFor(() => some().length === 3 && some(), "three events");
    expect(received.map((f) => [f.event, f.sequence])).toEqual([["turn_start", 3], ["turn_end", 6], ["turn_start", 15]]);
    expect(t.host.reports()[0]!.subscriptions).toEqual({ events: ["turn_start", "turn_end"], intercept: [] });
  });

  it("the json/rpc-only parts of the stream never reach extensions: client-only events, and the payload as the protocol defines it", async () => {
    const sub = subscriber("sub", ["assistant_message", "turn_end"]);
    t = await startHost(sb);
    t.bus.lifecycle({ type: "assistant_message", text: "" }, { extensions: false });
    t.bus.lifecycle({ type: "turn_end", stop: "aborted" }, { extensions: false });
    t.bus.lifecycle({ type: "assistant_message", text: "visible" });
    const received = await waitFor(() => sub().length === 1 && sub(), "the visible message");
    expect(received).toEqual([{ type: "event", event: "assistant_message", text: "visible", session_id: "session-1", cwd: sb.cwd, sequence: 3 }]);
  });

  it("observational events listed under intercept do not become blocking hooks", async () => {
    subscriber("obs", [], ["session_start", "tool_result", "tool_call"]);
    t = await startHost(sb);
    expect(t.host.reports()[0]!.subscriptions.intercept).toEqual(["tool_call"]);
  });

  it("an event over the 4 MiB frame limit is not sent (the extension's log says so); later events are", async () => {
    const obs = subscriber("obs", ["user_prompt_submit"]);
    t = await startHost(sb);
    t.bus.lifecycle({ type: "user_prompt_submit", text: "x".repeat(4 * 1024 * 1024) });
    t.bus.lifecycle({ type: "user_prompt_submit", text: "small" });
    const received = await waitFor(() => obs().length === 1 && obs(), "the small event");
    expect(received[0]).toMatchObject({ event: "user_prompt_submit", text: "small", sequence: 2 });
    const report = t.host.reports()[0]!;
    expect(report.status).toBe("ok");
    expect(report.warnings).toEqual([expect.stringMatching(/^not sending a user_prompt_submit event frame of \d+ bytes: over the 4194304-byte frame limit$/)]);
    expect(readFileSync(extensionLogPath(sb.paths, "obs"), "utf8")).toMatch(/warning: not sending a user_prompt_submit event frame/);
  });

  it("events emitted while an extension is down are not queued for it; delivery resumes for live ones", async () => {
    const live = subscriber("live", ["turn_start"]);
    writeExtension(sb.globalDir, "dead", { name: "dead", exitBeforeHello: 1 });
    t = await startHost(sb);
    t.bus.lifecycle({ type: "turn_start", step: 1 });
    await waitFor(() => live().length === 1, "delivery");
  });
});

describe("Tool outcome observations", () => {
  const observe = (result: { content: unknown[]; is_error: boolean; truncated?: boolean }) =>
    eventFrame({ type: "tool_result", tool_id: "t", tool_name: "read", tool_args: {}, status: "completed", executed: true,
      result: result as never, session_id: "s", cwd: "/", sequence: 1 }).result as { content: Array<Record<string, string>>; truncated?: boolean };

  it("text over 256 KiB is cut at a UTF-8 boundary and marked truncated", () => {
    const result = observe({ content: [{ type: "text", text: "€".repeat(100_000) }], is_error: false });
    expect(result.truncated).toBe(true);
    const text = result.content[0]!.text!;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(256 * 1024 - 3);
    expect(text).toMatch(/^€+$/);
  });

  it("at most 128 blocks; oversized images and unsupported blocks are omitted; details are never exported", () => {
    const many = observe({ content: Array.from({ length: 200 }, (_, i) => ({ type: "text", text: String(i) })), is_error: false });
    expect(many.content).toHaveLength(128);
    expect(many.truncated).toBe(true);
    const mixed = observe({ content: [
      { type: "image", mime_type: "image/png", data: "A".repeat(300 * 1024) },
      { type: "thinking", thinking: "private" },
      { type: "image", mime_type: "image/png", data: "QUJD" },
    ], is_error: true, details: { secret: 1 } } as never);
    expect(mixed).toEqual({ content: [{ type: "image", mime_type: "image/png", data: "QUJD" }], is_error: true, truncated: true });
    expect(observe({ content: [{ type: "text", text: "small" }], is_error: false })).toEqual({ content: [{ type: "text", text: "small" }], is_error: false });
  });

  it("a file change's diff is exported within the budget the content leaves", () => {
    const small = observe({ content: [{ type: "text", text: "Edited f" }], is_error: false, diff: "@@ -1 +1 @@\n-a\n+b\n" } as never);
    expect(small).toEqual({ content: [{ type: "text", text: "Edited f" }], is_error: false, diff: "@@ -1 +1 @@\n-a\n+b\n" });
    const full = observe({ content: [{ type: "text", text: "x".repeat(256 * 1024) }], is_error: false, diff: "+b\n" } as never);
    expect(full).not.toHaveProperty("diff");
    expect(full.truncated).toBe(true);
  });

  it("a subscriber receives the bounded observation, not the full output", async () => {
    const obs = subscriber("obs", ["tool_result"]);
    t = await startHost(sb);
    t.bus.lifecycle({ type: "tool_result", tool_id: "c", tool_name: "read", tool_args: { path: "x" }, status: "completed", executed: true,
      result: { content: [{ type: "text", text: "x".repeat(300 * 1024) }], is_error: false } });
    const [frame] = await waitFor(() => obs().length === 1 && obs(), "observation");
    const result = frame!.result as { content: Array<{ text: string }>; truncated: boolean };
    expect(result.truncated).toBe(true);
    expect(result.content[0]!.text.length).toBe(256 * 1024);
  });
});
