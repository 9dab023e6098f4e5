import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NO_HOOKS, type AgentHooks, type BeforeAgentStartInput } from "../../lib/agent/contracts/hooks.ts";
import { milestones, startHarness, systemSent, toolResultsSent, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A guard like the spec's example: refuses `rm -rf`, rewrites `ls` to an echo. */
const guard: AgentHooks = {
  ...NO_HOOKS,
  interceptToolCall: async (call) => {
    const command = String(call.toolArgs.command ?? "");
    if (call.toolName === "bash" && command.includes("rm -rf")) {
      return { block: true, reason: 'refused: matches danger pattern "rm -rf"', args: call.toolArgs };
    }
    if (call.toolName === "bash" && command.startsWith("ls")) return { block: false, args: { command: `echo GUARDED: ${command}` } };
    return { block: false, args: call.toolArgs };
  },
};

describe("tool_call interception", () => {
  it("a blocked call is a blocked result whose reason reaches the model, after a policy denial", async () => {
    h = await startHarness(
      [{ tool_calls: [{ id: "b1", name: "bash", args: { command: "rm -rf victim" } }] }, { text: "I will not delete it." }],
      { hooks: guard },
    );
    writeFileSync(join(h.cwd, "victim"), "still here");
    await h.session.prompt("delete victim");

    expect(existsSync(join(h.cwd, "victim"))).toBe(true);
    expect(h.ofType("permission_decision")).toEqual([
      expect.objectContaining({ tool_id: "b1", decision: "denied", source: "policy", stage: "pre_execution", reason: 'refused: matches danger pattern "rm -rf"' }),
    ]);
    expect(h.ofType("tool_result")[0]).toMatchObject({
      tool_id: "b1",
      status: "blocked",
      executed: false,
      tool_args: { command: "rm -rf victim" },
      result: { is_error: true, content: [{ type: "text", text: 'refused: matches danger pattern "rm -rf"' }] },
    });
    // The next request carries the reason as the tool's error.
    expect(toolResultsSent(h.server.requests[1]!.body)).toEqual([
      { tool_use_id: "b1", text: 'refused: matches danger pattern "rm -rf"', is_error: true },
    ]);
  });

  it("permission_decision names the interceptors that rewrote the arguments it decided on", async () => {
    const rewriter: AgentHooks = { ...NO_HOOKS, interceptToolCall: async () => ({ block: false, args: { command: "echo rewritten" }, rewrittenBy: ["fixer"] }) };
    h = await startHarness([{ tool_calls: [{ id: "r1", name: "bash", args: { command: "ls" } }] }, { text: "ok" }], { hooks: rewriter });
    await h.session.prompt("list files");
    expect(h.ofType("permission_decision")).toEqual([expect.objectContaining({ tool_id: "r1", decision: "approved", rewritten_by: ["fixer"] })]);
    expect(h.ofType("tool_result")[0]).toMatchObject({ tool_args: { command: "echo rewritten" } });
  });

  it("a rewrite changes the arguments the tool runs with, and tool_result reports the effective ones", async () => {
    h = await startHarness([{ tool_calls: [{ id: "l1", name: "bash", args: { command: "ls -la" } }] }, { text: "ok" }], { hooks: guard });
    await h.session.prompt("list files");
    // tool_call keeps the model's original proposal.
    expect(h.ofType("tool_call")[0]!.tool_args).toEqual({ command: "ls -la" });
    const [result] = h.ofType("tool_result");
    expect(result).toMatchObject({ status: "completed", executed: true, tool_args: { command: "echo GUARDED: ls -la" } });
    expect(toolResultsSent(h.server.requests[1]!.body)[0]!.text).toContain("GUARDED: ls -la");
  });
});

describe("turn_start interception", () => {
  it("a blocked turn calls no model, emits no turn_start, and ends the run as blocked with the reason", async () => {
    let asked = 0;
    const hooks: AgentHooks = { ...NO_HOOKS, interceptTurnStart: async (step) => { asked = step; return { block: true, reason: "outside business hours" }; } };
    h = await startHarness([{ text: "never sent" }], { hooks });
    const result = await h.session.prompt("hi");
    expect(asked).toBe(1);
    expect(result).toEqual({ stop: "blocked", error: "outside business hours", text: "" });
    expect(h.server.requests).toHaveLength(0);
    expect(h.types(milestones)).toEqual(["session_start", "user_prompt_submit", "done"]);
    expect(h.ofType("done")[0]).toEqual({ type: "done", stop: "blocked", error: "outside business hours" });
  });

  it("a block at a later step ends the run after the earlier step's tools ran", async () => {
    const hooks: AgentHooks = { ...NO_HOOKS, interceptTurnStart: async (step) => ({ block: step === 2, reason: "one step only" }) };
    h = await startHarness([{ tool_calls: [{ name: "bash", args: { command: "echo x" } }] }], { hooks });
    const result = await h.session.prompt("go");
    expect(result.stop).toBe("blocked");
    expect(h.ofType("turn_start").map((e) => e.step)).toEqual([1]);
    expect(h.ofType("tool_result")).toHaveLength(1);
  });
});

describe("assistant_message interception", () => {
  const redactor = (mode: "replace" | "block"): AgentHooks => ({
    ...NO_HOOKS,
    interceptsAssistantMessage: () => true,
    interceptAssistantMessage: async (text) =>
      mode === "block" ? { block: true, reason: "SUPPRESSED-BY-POLICY", extension: "policy", text } : { block: false, text: text.replaceAll("SECRET", "[redacted]") },
  });

  it("replace_text changes what the user sees, not what the model sees next, and nothing streams early", async () => {
    h = await startHarness([{ text: "the key is SECRET ok" }, { text: "fine" }], { hooks: redactor("replace") });
    const first = await h.session.prompt("tell me the key");
    expect(first.text).toBe("the key is [redacted] ok");
    expect(h.ofType("text_delta").map((e) => e.delta).join("")).toBe("the key is [redacted] ok");
    expect(JSON.stringify(h.events)).not.toContain("SECRET");
    expect(h.ofType("assistant_message")[0]!.text).toBe("the key is [redacted] ok");

    await h.session.prompt("again");
    const history = h.server.requests[1]!.body.messages;
    expect(JSON.stringify(history)).toContain("the key is SECRET ok");
  });

  it("block suppresses the message for the user; the transcript keeps it", async () => {
    h = await startHarness([{ text: "SECRET everywhere" }], { hooks: redactor("block") });
    const result = await h.session.prompt("hi");
    expect(result.text).toBe("");
    // Extensions get no assistant_message; json/rpc clients get one without the text.
    expect(h.extensionEvents.filter((e) => e.type === "assistant_message")).toEqual([]);
    expect(h.clientLinesOf("assistant_message")).toEqual([expect.objectContaining({ text: "", content: [] })]);
    expect(JSON.stringify(h.events)).not.toContain("SECRET");
    expect(h.ofType("text_delta")).toEqual([]);
    expect(h.session.messages[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "SECRET everywhere" }] });
  });

  it("a block's reason is shown to the user, naming the extension that blocked", async () => {
    h = await startHarness([{ text: "SECRET everywhere" }], { hooks: redactor("block") });
    await h.session.prompt("hi");
    expect(h.ofType("ext_notify")).toEqual([
      { type: "ext_notify", extension: "policy", level: "warn", message: "assistant message suppressed: SUPPRESSED-BY-POLICY" }]);
  });
});

describe("System prompt assembly and before_agent_start", () => {
  it("uses the built-in prompt, SYSTEM.md replaces it, appends follow in order", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }, { text: "c" }]);
    await h.session.prompt("x");
    const builtin = systemSent(h.server.requests[0]!.body);
    expect(builtin).toContain("You are zot");
    expect(builtin).toContain(`Working directory: ${h.cwd}`);
    expect(builtin).toMatch(/- bash: /);

    const systemFile = join(h.home, "SYSTEM.md");
    writeFileSync(systemFile, "CUSTOM SYSTEM FILE");
    const fromFile = h.newSession({ prompt: { systemFile, append: ["first append", "second append"] } });
    await fromFile.prompt("y");
    expect(systemSent(h.server.requests[1]!.body)).toBe("CUSTOM SYSTEM FILE\n\nfirst append\n\nsecond append");

    const fromFlag = h.newSession({ prompt: { systemFile, systemPrompt: "FLAG PROMPT" } });
    await fromFlag.prompt("z");
    expect(systemSent(h.server.requests[2]!.body)).toBe("FLAG PROMPT");
  });

  it("adds the skills manifest when skills exist", async () => {
    const skills = [{ name: "deploy", description: "How to deploy this project", source: "project" as const, body: "steps" }];
    h = await startHarness([{ text: "a" }], { skills, prompt: { systemPrompt: "BASE" } });
    await h.session.prompt("x");
    const system = systemSent(h.server.requests[0]!.body);
    expect(system.startsWith("BASE\n\n")).toBe(true);
    expect(system).toContain("deploy");
    expect(system).toContain("How to deploy this project");
    expect(h.server.requests[0]!.body.tools.map((t: any) => t.name)).toContain("skill");
  });

  it("the replacement is sent to the model, stable across prompts, and rebuilt after a model change or clear", async () => {
    const calls: BeforeAgentStartInput[] = [];
    const hooks: AgentHooks = {
      ...NO_HOOKS,
      beforeAgentStart: async (input) => {
        calls.push(input);
        return `REPLACED#${calls.length} (was ${input.systemPrompt.length} chars)`;
      },
    };
    h = await startHarness([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }], { hooks, prompt: { systemPrompt: "BASE PROMPT" } });
    await h.session.prompt("one");
    await h.session.prompt("two");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ sessionId: h.session.sessionId, cwd: h.cwd, provider: "anthropic", model: "claude-sonnet-4-6", systemPrompt: "BASE PROMPT" });
    expect(systemSent(h.server.requests[0]!.body)).toBe("REPLACED#1 (was 11 chars)");
    expect(systemSent(h.server.requests[1]!.body)).toBe("REPLACED#1 (was 11 chars)");

    h.session.setModel("claude-opus-4-6");
    await h.session.prompt("three");
    expect(calls).toHaveLength(2);
    // A rebuild starts from the unmodified base prompt with a fresh agent_run_id.
    expect(calls[1]!.systemPrompt).toBe("BASE PROMPT");
    expect(calls[1]!.model).toBe("claude-opus-4-6");
    expect(calls[1]!.agentRunId).not.toBe(calls[0]!.agentRunId);
    expect(h.server.requests[2]!.body.model).toBe("claude-opus-4-6");
    expect(systemSent(h.server.requests[2]!.body)).toBe("REPLACED#2 (was 11 chars)");

    await h.session.clear();
    await h.session.prompt("four");
    expect(calls).toHaveLength(3);
    expect(h.server.requests[3]!.body.messages).toHaveLength(1);
  });

  it("a reset while the chain is waiting discards that pass and runs a fresh one", async () => {
    const seen: string[] = [];
    let release: (() => void) | undefined;
    const hooks: AgentHooks = {
      ...NO_HOOKS,
      beforeAgentStart: async (input) => {
        seen.push(input.agentRunId);
        if (seen.length === 1) await new Promise<void>((r) => (release = r));
        return `PASS ${seen.length}`;
      },
    };
    h = await startHarness([{ text: "a" }], { hooks });
    const run = h.session.prompt("x");
    while (!release) await new Promise((r) => setTimeout(r, 5));
    h.session.resetSystemPrompt();
    release();
    await run;
    expect(seen).toHaveLength(2);
    expect(systemSent(h.server.requests[0]!.body)).toBe("PASS 2");
  });
});

describe("Skills through the real skill tool", () => {
  it("the model loads a skill body by name", async () => {
    const skills = [{ name: "release", description: "Release steps", source: "project" as const, body: "Run the release script." }];
    h = await startHarness([{ tool_calls: [{ id: "s1", name: "skill", args: { name: "release" } }] }, { text: "ok" }], { skills });
    await h.session.prompt("how do we release?");
    expect(toolResultsSent(h.server.requests[1]!.body)[0]!.text).toContain("Run the release script.");
  });
});
