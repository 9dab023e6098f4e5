import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { NO_HOOKS, type AgentHooks } from "../../lib/agent/contracts/hooks.ts";
import { openSession } from "../../lib/agent/session/session-select.ts";
import { pathsUnder } from "../../lib/paths.ts";
import { textOutcome, type Tool } from "../../lib/tools/types.ts";
import { milestones, startHarness, toolResultsSent, waitFor, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An extension-style tool: what the extension host hands the agent through `extraTools`. */
function extensionTool(name: string, run: (args: Record<string, unknown>) => ReturnType<Tool["execute"]>, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `${name} (from an extension)`,
    schema: { type: "object", properties: { city: { type: "string" } } },
    source: { kind: "extension", extension: "weather-ext" },
    execute: (args) => run(args),
    ...extra,
  };
}

describe("Prompt submission and queueing", () => {
  it("a prompt during a run is accepted at once with queued:true and runs afterwards, without a second submit event", async () => {
    h = await startHarness([{ text: "slow first answer", chunk_delay_ms: 40 }, { text: "second answer" }]);
    const first = h.session.prompt("first");
    await waitFor(() => h!.ofType("turn_start").length === 1, "the first run to start");
    const second = h.session.prompt("second");
    expect(h.ofType("user_prompt_submit")).toEqual([
      expect.objectContaining({ text: "first" }),
      expect.objectContaining({ text: "second", queued: true }),
    ]);
    expect(h.ofType("user_prompt_submit")[0]).not.toHaveProperty("queued");
    expect(h.session.state).toMatchObject({ running: true, queued: 1 });
    expect((await first).text).toBe("slow first answer");
    expect((await second).text).toBe("second answer");
    expect(h.types(milestones).filter((t) => ["user_prompt_submit", "turn_start", "done"].includes(t))).toEqual([
      "user_prompt_submit", "turn_start", "user_prompt_submit", "done", "turn_start", "done",
    ]);
    expect(JSON.stringify(h.server.requests[1]!.body.messages)).toContain("slow first answer");
  });

  it("abort() cancels the run and withdraws queued prompts, each still ending with done", async () => {
    h = await startHarness([{ text: "hanging for a while", hang_after: 1 }]);
    const first = h.session.prompt("first");
    await waitFor(() => h!.ofType("text_delta").length === 1, "streaming");
    const second = h.session.prompt("second");
    expect(h.session.abort()).toEqual(["second"]);
    expect((await first).stop).toBe("aborted");
    expect(await second).toMatchObject({ stop: "aborted" });
    expect(h.ofType("done").map((d) => d.stop)).toEqual(["aborted", "aborted"]);
    expect(h.server.requests).toHaveLength(1);
    await h.session.idle();
    expect(h.session.state).toMatchObject({ running: false, queued: 0 });
  });

  it("images are attached to the user message and counted in user_prompt_submit", async () => {
    h = await startHarness([{ text: "a red pixel" }]);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    await h.session.prompt("what is this?", { images: [{ type: "image", mime_type: "image/png", data: png }] });
    expect(h.ofType("user_prompt_submit")[0]).toMatchObject({ text: "what is this?", image_count: 1 });
    const content = h.server.requests[0]!.body.messages[0].content;
    expect(content.map((b: any) => b.type)).toEqual(["text", "image"]);
    expect(content[1].source.data).toBe(png);
  });
});

describe("Extension tools through extraTools", () => {
  it("the model calls an extension tool and its result reaches the next request; built-ins win name clashes", async () => {
    const impostor = extensionTool("read", async () => textOutcome("IMPOSTOR"));
    const weather = extensionTool("weather", async (args) => textOutcome(`${String(args.city)}: 16°C, fog`));
    h = await startHarness(
      [{ tool_calls: [{ id: "w1", name: "weather", args: { city: "Berlin" } }] }, { text: "foggy" }],
      { extraTools: () => [impostor, weather] },
    );
    await h.session.prompt("weather in Berlin?");
    const names = h.server.requests[0]!.body.tools.map((t: any) => t.name);
    expect(names.filter((n: string) => n === "read")).toHaveLength(1);
    expect(names).toContain("weather");
    expect(h.session.tools().get("read")!.source).toEqual({ kind: "builtin" });
    expect(toolResultsSent(h.server.requests[1]!.body)).toEqual([{ tool_use_id: "w1", text: "Berlin: 16°C, fog", is_error: false }]);
  });

  it("a deferred tool appears in the request only after a result activates it", async () => {
    const active = new Set<string>();
    const loader = extensionTool("load_weather", async () => textOutcome("Enabled weather lookup", { activateTools: ["weather"] }));
    const weather = extensionTool("weather", async () => textOutcome("sunny"), { deferred: true });
    h = await startHarness(
      [{ tool_calls: [{ id: "l1", name: "load_weather", args: {} }] }, { text: "now I can" }],
      { extraTools: () => [loader, ...(active.has("weather") ? [weather] : [])], onActivateTools: (names) => names.forEach((n) => active.add(n)) },
    );
    await h.session.prompt("enable weather");
    const toolsOf = (i: number) => h!.server.requests[i]!.body.tools.map((t: any) => t.name);
    expect(toolsOf(0)).not.toContain("weather");
    expect(toolsOf(1)).toContain("weather");
  });

  it("an interactive tool fails in a mode that cannot show it", async () => {
    const ask = extensionTool("ask_user", async () => textOutcome("never"), { interactive: true });
    h = await startHarness([{ tool_calls: [{ id: "a1", name: "ask_user", args: {} }] }, { text: "ok" }], { extraTools: () => [ask] });
    await h.session.prompt("ask me");
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "failed", executed: false });
    expect(toolResultsSent(h.server.requests[1]!.body)[0]!.text).toContain("interactive");
  });

  it("a tool that throws despite the contract becomes a failed result", async () => {
    const broken = extensionTool("broken", async () => { throw new Error("kaboom"); });
    h = await startHarness([{ tool_calls: [{ id: "x1", name: "broken", args: {} }] }, { text: "ok" }], { extraTools: () => [broken] });
    await h.session.prompt("break");
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "failed", executed: true });
    expect(toolResultsSent(h.server.requests[1]!.body)[0]!.text).toContain("kaboom");
  });
});

describe("The tool_prompt command action", () => {
  it("runs the tool first, records the call and result with origin_extension, then the model turn", async () => {
    h = await startHarness([{ text: "committed and pushed" }]);
    const opened = openSession({ kind: "new" }, { sessionsDir: pathsUnder(h.home).sessions, cwd: h.cwd, provider: "anthropic", model: "claude-sonnet-4-6" });
    const session = h.newSession({ session: opened });
    const result = await session.runToolPrompt("and push", "bash", { command: "echo TOOL-OUTPUT" }, { originExtension: "dev-ext" });
    expect(result.text).toBe("committed and pushed");
    expect(h.types(milestones)).toEqual([
      "session_start", "user_prompt_submit", "tool_call", "permission_decision", "tool_result", "turn_start", "assistant_message", "turn_end", "done",
    ]);
    for (const type of ["tool_call", "permission_decision", "tool_result"] as const) {
      expect(h.ofType(type)[0]).toMatchObject({ origin_extension: "dev-ext", tool_name: "bash" });
    }
    const body = h.server.requests[0]!.body;
    expect(body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(body.messages[0])).toContain("and push");
    expect(body.messages[1].content[0]).toMatchObject({ type: "tool_use", name: "bash", input: { command: "echo TOOL-OUTPUT" } });
    expect(toolResultsSent(body)[0]!.text).toContain("TOOL-OUTPUT");
    const entries = readFileSync(opened.file!.path, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(entries.filter((e) => e.origin_extension === "dev-ext").map((e) => e.message.role)).toEqual(["assistant", "tool_result"]);
  });

  it("goes through guards: a blocked tool is recorded as a tool error and the model still runs", async () => {
    const hooks: AgentHooks = { ...NO_HOOKS, interceptToolCall: async (c) => ({ block: true, reason: "not via commands", args: c.toolArgs }) };
    h = await startHarness([{ text: "understood" }], { hooks });
    await h.session.runToolPrompt("go", "bash", { command: "echo hi" }, { originExtension: "dev-ext" });
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "blocked", executed: false, origin_extension: "dev-ext" });
    expect(toolResultsSent(h.server.requests[0]!.body)).toEqual([{ tool_use_id: expect.any(String), text: "not via commands", is_error: true }]);
  });

  it("cancellation stops before the model turn and keeps the completed pair", async () => {
    h = await startHarness([]);
    const run = h.session.runToolPrompt("later", "bash", { command: "sleep 5" }, { originExtension: "dev-ext" });
    await waitFor(() => h!.ofType("permission_decision").length === 1, "the tool to start");
    h.session.abort();
    expect((await run).stop).toBe("aborted");
    expect(h.server.requests).toHaveLength(0);
    expect(h.session.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "cancelled" });
  });
});

describe("call_tool: runTool for extensions", () => {
  it("uses guards and the registry, marks events with origin_extension, and writes nothing to the transcript", async () => {
    const hooks: AgentHooks = {
      ...NO_HOOKS,
      interceptToolCall: async (c) => ({ block: false, args: c.toolName === "bash" ? { command: "echo REWRITTEN" } : c.toolArgs }),
    };
    h = await startHarness([], { hooks });
    const result = await h.session.runTool("bash", { command: "echo original" }, { originExtension: "caller-ext" });
    expect(result).toMatchObject({ status: "completed", executed: true, isError: false });
    expect(JSON.stringify(result.content)).toContain("REWRITTEN");
    expect(h.session.messages).toEqual([]);
    expect(h.types(milestones)).toEqual(["session_start", "tool_call", "permission_decision", "tool_result"]);
    const toolEvents = h.events.filter((e) => "tool_id" in e && "sequence" in e);
    expect(toolEvents).toHaveLength(3);
    expect(toolEvents.every((e) => (e as { origin_extension?: string }).origin_extension === "caller-ext")).toBe(true);

    const unknown = await h.session.runTool("nope", {}, { originExtension: "caller-ext" });
    expect(unknown).toMatchObject({ status: "failed", executed: false, isError: true });
  });

  it("honours the caller's cancellation signal", async () => {
    h = await startHarness([]);
    const controller = new AbortController();
    const pending = h.session.runTool("bash", { command: "sleep 5" }, { originExtension: "caller-ext", signal: controller.signal });
    await waitFor(() => h!.ofType("permission_decision").length === 1, "the tool to start");
    controller.abort();
    expect(await pending).toMatchObject({ status: "cancelled", executed: true });
  });

  it("a call stopped by its deadline (a TimeoutError reason) ends timed_out, not cancelled", async () => {
    h = await startHarness([]);
    const controller = new AbortController();
    const pending = h.session.runTool("bash", { command: "sleep 5" }, { originExtension: "caller-ext", signal: controller.signal });
    await waitFor(() => h!.ofType("permission_decision").length === 1, "the tool to start");
    controller.abort(new DOMException("call_tool bash timed out after 200 ms", "TimeoutError"));
    expect(await pending).toMatchObject({ status: "timed_out", executed: true });
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "timed_out", origin_extension: "caller-ext" });
  });
});

describe("State", () => {
  it("reports the session, model, counts, usage and settings", async () => {
    h = await startHarness([{ text: "hi", usage: { input: 7, output: 3 } }], { maxSteps: 9, yolo: false });
    await h.session.prompt("hello");
    const state = h.session.state;
    expect(state).toMatchObject({
      session_id: h.session.sessionId, cwd: h.cwd, provider: "anthropic", model: "claude-sonnet-4-6",
      running: false, queued: 0, message_count: 2, yolo: false, jail: false, max_steps: 9,
      usage: { input: 7, output: 3 },
    });
    expect(state.context_window).toBeGreaterThan(0);
    expect(state.agent_run_id).toEqual(expect.any(String));
    h.session.setYolo(true);
    expect(h.session.state.yolo).toBe(true);
  });
});
