import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { milestones, startHarness, toolResultsSent, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("Ordering: a normal client tool step", () => {
  it("emits the spec's sequence from user_prompt_submit to the next turn_start and done", async () => {
    h = await startHarness([
      { text: "Reading it.", tool_calls: [{ id: "call-1", name: "read", args: { path: "notes.txt" } }] },
      { text: "The file says hello." },
    ]);
    writeFileSync(join(h.cwd, "notes.txt"), "hello from the file\n");
    const result = await h.session.prompt("what does notes.txt say?");

    expect(result).toEqual({ stop: "end_turn", text: "The file says hello." });
    expect(h.types(milestones)).toEqual([
      "session_start",
      "user_prompt_submit",
      "turn_start",
      "assistant_message",
      "tool_call",
      "turn_end",
      "permission_decision",
      "tool_result",
      "turn_start",
      "assistant_message",
      "turn_end",
      "done",
    ]);
    const [call] = h.ofType("tool_call");
    expect(call).toMatchObject({ tool_id: "call-1", tool_name: "read", tool_args: { path: "notes.txt" } });
    expect(h.ofType("permission_decision")[0]).toMatchObject({ tool_id: "call-1", decision: "approved", source: "yolo", stage: "pre_execution" });
    const [result1] = h.ofType("tool_result");
    expect(result1).toMatchObject({ tool_id: "call-1", tool_name: "read", tool_args: { path: "notes.txt" }, status: "completed", executed: true });
    expect(result1!.result.is_error).toBe(false);
    expect(JSON.stringify(result1!.result.content)).toContain("hello from the file");
    expect(h.ofType("turn_start").map((e) => e.step)).toEqual([1, 2]);
    expect(h.ofType("turn_end").map((e) => e.stop)).toEqual(["tool_use", "end_turn"]);

    // Every lifecycle event is stamped with this session and a strictly increasing sequence.
    const stamped = h.events.filter((e): e is Extract<typeof e, { sequence: number }> => "sequence" in e);
    expect(stamped.every((e) => e.session_id === h!.session.sessionId && e.cwd === h!.cwd)).toBe(true);
    const sequences = stamped.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));

    // The model received the real file content as the tool result.
    const sent = toolResultsSent(h.server.requests[1]!.body);
    expect(sent).toEqual([{ tool_use_id: "call-1", text: expect.stringContaining("hello from the file"), is_error: false }]);
  });

  it("announces every call of a batch before turn_end, then gives each its own decision and result", async () => {
    h = await startHarness([
      {
        tool_calls: [
          { id: "w1", name: "write", args: { path: "a.txt", content: "A" } },
          { id: "w2", name: "write", args: { path: "b.txt", content: "B" } },
        ],
      },
      { text: "done" },
    ]);
    await h.session.prompt("write two files");
    const seq = h.events
      .filter((e) => ["tool_call", "turn_end", "permission_decision", "tool_result"].includes(e.type))
      .map((e) => `${e.type}${"tool_id" in e ? `:${e.tool_id}` : ""}`);
    expect(seq.slice(0, 7)).toEqual([
      "tool_call:w1", "tool_call:w2", "turn_end",
      "permission_decision:w1", "tool_result:w1",
      "permission_decision:w2", "tool_result:w2",
    ]);
    expect(readFileSync(join(h.cwd, "a.txt"), "utf8")).toBe("A");
    expect(readFileSync(join(h.cwd, "b.txt"), "utf8")).toBe("B");
  });

  it("streams text_delta live and reports usage after each step with cumulative totals", async () => {
    h = await startHarness([
      { text: "one two", tool_calls: [{ name: "bash", args: { command: "echo hi" } }], usage: { input: 100, output: 10 } },
      { text: "three", usage: { input: 200, output: 5 } },
    ]);
    await h.session.prompt("go");
    const deltas = h.ofType("text_delta").map((e) => e.delta).join("");
    expect(deltas).toBe("one twothree");
    const usage = h.ofType("usage");
    expect(usage.map((u) => [u.input, u.output])).toEqual([[100, 10], [200, 5]]);
    expect(usage[1]!.cumulative.input).toBe(300);
    expect(usage[1]!.cumulative.output).toBe(15);
    // claude-sonnet-4-6 costs $3 / $15 per million tokens.
    expect(usage[1]!.cumulative.cost_usd).toBeCloseTo((300 * 3 + 15 * 15) / 1e6, 10);
    // A usage event follows each turn_end.
    const order = h.types((e) => e.type === "usage" || e.type === "turn_end");
    expect(order).toEqual(["turn_end", "usage", "turn_end", "usage"]);
    expect(h.ofType("tool_progress").map((e) => e.text).join("")).toContain("hi");
  });

  it("works the same through the OpenAI wire format", async () => {
    h = await startHarness(
      [{ tool_calls: [{ id: "c1", name: "bash", args: { command: "echo via-openai" } }] }, { text: "ok" }],
      { wire: "openai" },
    );
    const result = await h.session.prompt("run it");
    expect(result.stop).toBe("end_turn");
    expect(h.ofType("tool_result")[0]).toMatchObject({ tool_id: "c1", status: "completed", executed: true });
    const toolMessage = h.server.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    expect(JSON.stringify(toolMessage)).toContain("via-openai");
  });
});

describe("Tool outcomes", () => {
  it("an unknown tool is a failed result that tells the model the available tools", async () => {
    h = await startHarness([{ tool_calls: [{ id: "u1", name: "teleport", args: { to: "mars" } }] }, { text: "sorry" }]);
    await h.session.prompt("go to mars");
    const [result] = h.ofType("tool_result");
    expect(result).toMatchObject({ tool_id: "u1", tool_name: "teleport", status: "failed", executed: false });
    expect(h.ofType("permission_decision")).toEqual([]);
    const sent = toolResultsSent(h.server.requests[1]!.body)[0]!;
    expect(sent.is_error).toBe(true);
    expect(sent.text).toContain('Unknown tool "teleport"');
    for (const name of ["read", "write", "edit", "bash"]) expect(sent.text).toContain(name);
  });

  it("malformed arguments are a failed result carrying tool_args_raw and no tool_args", async () => {
    h = await startHarness([{ tool_calls: [{ id: "m1", name: "bash", args_raw: '{"command": "ls' }] }, { text: "retrying" }]);
    await h.session.prompt("list");
    const [result] = h.ofType("tool_result");
    expect(result).toMatchObject({ tool_id: "m1", status: "failed", executed: false, tool_args_raw: '{"command": "ls' });
    expect(result).not.toHaveProperty("tool_args");
    expect(toolResultsSent(h.server.requests[1]!.body)[0]!.text).toContain("not a valid JSON object");
  });

  it("a tool_call with malformed arguments omits tool_args and carries tool_args_raw, like tool_result", async () => {
    h = await startHarness([{ tool_calls: [{ id: "m2", name: "bash", args_raw: '{"command": "ls' }] }, { text: "retrying" }]);
    await h.session.prompt("list");
    const [call] = h.ofType("tool_call");
    expect(call).toMatchObject({ tool_id: "m2", tool_name: "bash", tool_args_raw: '{"command": "ls' });
    expect(call).not.toHaveProperty("tool_args");
  });

  it("a tool error is failed with executed:true, and the loop continues", async () => {
    h = await startHarness([{ tool_calls: [{ id: "r1", name: "read", args: { path: "missing.txt" } }] }, { text: "no such file" }]);
    const result = await h.session.prompt("read missing.txt");
    expect(result.stop).toBe("end_turn");
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "failed", executed: true, result: { is_error: true } });
  });
});

describe("Run endings", () => {
  it("stops at maxSteps with an error and leaves every call answered", async () => {
    const call = (id: string) => ({ tool_calls: [{ id, name: "bash", args: { command: "true" } }] });
    h = await startHarness([call("s1"), call("s2"), call("s3")], { maxSteps: 2 });
    const result = await h.session.prompt("loop forever");
    expect(result.stop).toBe("error");
    expect(result.error).toContain("2 model steps");
    expect(h.server.requests).toHaveLength(2);
    expect(h.ofType("turn_start").map((e) => e.step)).toEqual([1, 2]);
    expect(h.ofType("tool_result")).toHaveLength(2);
    expect(h.ofType("done")).toEqual([{ type: "done", stop: "error", error: result.error }]);
    const last = h.session.messages[h.session.messages.length - 1]!;
    expect(last.role).toBe("tool_result");
  });

  it("a provider error ends the run with that error after turn_end", async () => {
    h = await startHarness([{ type: "error", status: 400, message: "bad model name" }]);
    const result = await h.session.prompt("hi");
    expect(result.stop).toBe("error");
    expect(result.error).toContain("bad model name");
    expect(h.types(milestones)).toEqual(["session_start", "user_prompt_submit", "turn_start", "turn_end", "done"]);
    expect(h.ofType("turn_end")[0]).toMatchObject({ stop: "error", error: expect.stringContaining("bad model name") });
    expect(h.ofType("done")[0]).toMatchObject({ stop: "error", error: expect.stringContaining("bad model name") });
  });

  it("a retried request (500, then 200) is a retry event, not an error, and the run succeeds", async () => {
    h = await startHarness([{ type: "error", status: 500, message: "flaky" }, { text: "second try" }], { retry: { maxRetries: 1, baseDelayMs: 1 } });
    const result = await h.session.prompt("hi");
    expect(result).toEqual({ stop: "end_turn", text: "second try" });
    expect(h.server.requests).toHaveLength(2);
    expect(h.ofType("error")).toEqual([]);
    expect(h.ofType("retry")).toEqual([{ type: "retry", attempt: 1, delay_ms: 1, status: 500, message: expect.stringMatching(/^HTTP 500.*flaky/) }]);
    expect(h.ofType("turn_start")).toHaveLength(1);
  });

  it("an empty prompt is refused without events", async () => {
    h = await startHarness([]);
    await expect(h.session.prompt("   ")).rejects.toThrow(/empty prompt/);
    expect(h.events).toEqual([]);
  });
});
