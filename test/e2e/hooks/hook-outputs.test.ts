// What a hook's exit status and output do, by Claude Code's rules: exit 2 blocks with stderr as
// the reason, another status is a non-blocking error the user sees, exit 0's JSON (or plain
// stdout) decides, denies, asks, rewrites, adds context, continues the agent or stops it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashTurn, hook, hooksWorld, LANGUAGES, sentToModel, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const pre = (command: string, matcher = "Bash") => ({ PreToolUse: [{ matcher, hooks: [hook(command)] }] });
const decision = (permissionDecision: string, extra: Record<string, unknown> = {}) =>
  ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, ...extra } });

describe.each(LANGUAGES)("hook outputs ($lang)", ({ hook: cmd }) => {
  it("exit 2 from PreToolUse blocks the call, and the model gets stderr as the reason", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "ok" }], pre(cmd("guard", "exit", "2", "touching is not allowed here")));
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
    expect(sentToModel(world, 1)).toContain("touching is not allowed here");
  });

  it("another exit status is a non-blocking error the user is shown, and the call still runs", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "ok" }], pre(cmd("broken", "exit", "1", "the hook broke")));
    const r = await world.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
    expect(r.stderr).toContain("PreToolUse hook");
    expect(r.stderr).toContain("the hook broke");
  });

  it("permissionDecision deny blocks with its reason; the older decision block does too", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), bashTurn("touch two.txt", "call_2"), { text: "ok" }], (reply) => ({ PreToolUse: [
      { matcher: "Bash", hooks: [hook(cmd("deny", "json", reply("deny", decision("deny", { permissionDecisionReason: "not on a Friday" }))))], if: undefined },
      { matcher: "Bash", hooks: [hook(cmd("legacy", "json", reply("legacy", { decision: "block", reason: "old style says no" })))] },
    ] }));
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
    expect(existsSync(join(world.cwd, "two.txt"))).toBe(false);
    expect(sentToModel(world, 1)).toContain("not on a Friday");
    expect(sentToModel(world, 1)).toContain("old style says no");
  });

  it("updatedInput rewrites the call: the command that runs is the hook's", async () => {
    world = await hooksWorld([bashTurn("touch original.txt"), { text: "ok" }],
      (reply) => pre(cmd("rw", "json", reply("rewrite", decision("allow", { updatedInput: { command: "touch rewritten.txt" } })))));
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "rewritten.txt"))).toBe(true);
    expect(existsSync(join(world.cwd, "original.txt"))).toBe(false);
  });

  it("ask, where nobody can confirm (a one-shot run), denies the call and says why", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "ok" }], (reply) => {
      const ask = reply("ask", decision("ask", { permissionDecisionReason: "a human should look" }));
      return pre(cmd("ask", "json", ask));
    });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
    expect(sentToModel(world, 1)).toContain("a human should look");
  });

  it("additionalContext of PreToolUse and PostToolUse reaches the model with the call's result", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "ok" }], (reply) => {
      const before = reply("before", decision("allow", { additionalContext: "note from before" }));
      const after = reply("after", { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "note from after" } });
      return { ...pre(cmd("pre", "json", before)), PostToolUse: [{ matcher: "Bash", hooks: [hook(cmd("post", "json", after))] }] };
    });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(sentToModel(world, 1)).toContain("note from before");
    expect(sentToModel(world, 1)).toContain("note from after");
  });

  it("PostToolUse decision block gives the model its reason as feedback; exit 2 gives stderr", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "ok" }], (reply) => {
      const block = reply("block", { decision: "block", reason: "lint failed on line 3" });
      return { PostToolUse: [{ matcher: "Bash", hooks: [hook(cmd("post", "json", block)), hook(cmd("post2", "exit", "2", "format it first"))] }] };
    });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(sentToModel(world, 1)).toContain("lint failed on line 3");
    expect(sentToModel(world, 1)).toContain("format it first");
  });

  it("UserPromptSubmit: plain stdout and additionalContext reach the model with the prompt", async () => {
    world = await hooksWorld([{ text: "ok" }], (reply) => {
      const context = reply("ctx", { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "the sprint ends Friday" } });
      return { UserPromptSubmit: [{ hooks: [hook(cmd("plain", "text", "branch is main")), hook(cmd("json", "json", context))] }] };
    });
    expect((await world.run(["-p", "what now"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("branch is main");
    expect(sentToModel(world, 0)).toContain("the sprint ends Friday");
  });

  it("UserPromptSubmit exit 2 blocks the prompt: the model is never asked and the user sees the reason", async () => {
    world = await hooksWorld([{ text: "ok" }], { UserPromptSubmit: [{ hooks: [hook(cmd("gate", "exit", "2", "no secrets in prompts"))] }] });
    const r = await world.run(["-p", "my password is hunter2"]);
    expect(r.code).not.toBe(0);
    expect(world.server.requests).toHaveLength(0);
    expect(r.stderr).toContain("no secrets in prompts");
  });

  it("continue false stops the prompt with stopReason, whatever else the reply says", async () => {
    world = await hooksWorld([{ text: "ok" }], (reply) => {
      const stop = reply("stop", { continue: false, stopReason: "maintenance window", hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ignored" } });
      return { UserPromptSubmit: [{ hooks: [hook(cmd("stop", "json", stop))] }] };
    });
    const r = await world.run(["-p", "hi"]);
    expect(world.server.requests).toHaveLength(0);
    expect(r.stderr).toContain("maintenance window");
  });

  it("systemMessage is shown to the user", async () => {
    world = await hooksWorld([{ text: "ok" }], (reply) => {
      const message = reply("msg", { systemMessage: "remember to stretch" });
      return { UserPromptSubmit: [{ hooks: [hook(cmd("msg", "json", message))] }] };
    });
    const r = await world.run(["-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("remember to stretch");
  });

  it("SessionStart's output is context the model gets", async () => {
    world = await hooksWorld([{ text: "ok" }], (reply) => {
      const context = reply("ctx", { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "open issues: 3" } });
      return { SessionStart: [{ hooks: [hook(cmd("plain", "text", "on call: Ana")), hook(cmd("json", "json", context))] }] };
    });
    expect((await world.run(["-p", "hi"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("on call: Ana");
    expect(sentToModel(world, 0)).toContain("open issues: 3");
  });

  it("Stop decision block continues the agent with the reason as its next instruction, at most 8 times in a row", async () => {
    const answers = Array.from({ length: 10 }, (_, i) => ({ text: `answer ${i + 1}` }));
    world = await hooksWorld(answers, (reply) => ({
      Stop: [{ hooks: [hook(cmd("stop", "json", reply("block", { decision: "block", reason: "run the tests before you stop" })))] }],
    }));
    const r = await world.run(["-p", "fix it"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(9);
    expect(sentToModel(world, 1)).toContain("run the tests before you stop");
    expect(world.records().map((rec) => rec.input.stop_hook_active)).toEqual([false, ...Array(8).fill(true)]);
    expect(r.stderr).toContain("continued 8 times in a row");
  });

  it("Stop exit 2 continues the agent with stderr as its next instruction", async () => {
    world = await hooksWorld([{ text: "done?" }, { text: "now done" }], {
      Stop: [{ hooks: [hook(cmd("stop", "once", "2", "also update the changelog"))] }],
    });
    const r = await world.run(["-p", "fix it"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(sentToModel(world, 1)).toContain("also update the changelog");
    expect(r.stdout).toContain("now done");
  });
});
