// What a hook receives on stdin is what Claude Code sends: the common fields, and per event the
// tool's Claude Code name and input, its response or error, the prompt, the stop state, the
// session's source and end reason. Each rule in sh and in Python.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { everything, writeMcpExtension } from "../../extensions/mcp/support.ts";
import { bashTurn, hook, hooksWorld, LANGUAGES, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe.each(LANGUAGES)("hook input ($lang)", ({ hook: cmd }) => {
  it("PreToolUse and PostToolUse get the common fields, Bash's command with its timeout in ms, the tool_use_id and the tool_response", async () => {
    world = await hooksWorld([{ tool_calls: [{ id: "call_7", name: "bash", args: { command: "echo hi", timeout: 7 } }], stop: "tool_use" }, { text: "done" }], {
      PreToolUse: [{ matcher: "Bash", hooks: [hook(cmd("pre", "exit", "0"))] }],
      PostToolUse: [{ matcher: "Bash", hooks: [hook(cmd("post", "exit", "0"))] }],
    });
    const r = await world.run(["-p", "say hi"]);
    expect(r.code).toBe(0);
    const [pre, post] = world.records();
    expect(pre!.input).toMatchObject({
      hook_event_name: "PreToolUse", permission_mode: "default", cwd: realpathSync(world.cwd),
      tool_name: "Bash", tool_input: { command: "echo hi", timeout: 7000 }, tool_use_id: "call_7",
    });
    expect(pre!.input.session_id).toMatch(/^\d{8}-\d{6}Z-/);
    // The transcript is in Claude Code's JSONL shape.
    const transcript = readFileSync(pre!.input.transcript_path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(transcript[0]).toMatchObject({ type: "user", message: { role: "user", content: "say hi" }, sessionId: pre!.input.session_id });
    expect(transcript.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(transcript[1]).toMatchObject({ message: { content: [{ type: "tool_use", id: "call_7", name: "Bash", input: { command: "echo hi" } }] } });
    expect(transcript[2]).toMatchObject({ message: { content: [{ type: "tool_result", tool_use_id: "call_7", content: "hi" }] } });
    expect(post!.input).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "call_7",
      tool_response: { stdout: expect.stringContaining("hi"), interrupted: false } });
  });

  it("Read, Write and Edit are named as in Claude Code, with an absolute file_path", async () => {
    world = await hooksWorld([
      { tool_calls: [{ id: "r", name: "read", args: { path: "a.txt", offset: 1, limit: 5 } }], stop: "tool_use" },
      { tool_calls: [{ id: "w", name: "write", args: { path: "sub/b.txt", content: "bee" } }], stop: "tool_use" },
      { tool_calls: [{ id: "e", name: "edit", args: { path: "a.txt", old_text: "one", new_text: "two" } }], stop: "tool_use" },
      { text: "done" },
    ], { PreToolUse: [{ matcher: "Read|Write|Edit", hooks: [hook(cmd("pre", "exit", "0"))] }] });
    writeFileSync(join(world.cwd, "a.txt"), "one\n");
    expect((await world.run(["-p", "files"])).code).toBe(0);
    const cwd = realpathSync(world.cwd);
    expect(world.records().map((r) => [r.input.tool_name, r.input.tool_input])).toEqual([
      ["Read", { file_path: join(cwd, "a.txt"), offset: 1, limit: 5 }],
      ["Write", { file_path: join(cwd, "sub", "b.txt"), content: "bee" }],
      ["Edit", { file_path: join(cwd, "a.txt"), old_string: "one", new_string: "two", replace_all: false }],
    ]);
  });

  it("glob and grep are Glob and Grep, with the same arguments (path absolute)", async () => {
    world = await hooksWorld([
      { tool_calls: [{ id: "g", name: "glob", args: { pattern: "**/*.md", path: "docs" } }], stop: "tool_use" },
      { tool_calls: [{ id: "s", name: "grep", args: { pattern: "TODO", output_mode: "content", "-n": true } }], stop: "tool_use" },
      { text: "done" },
    ], { PreToolUse: [{ matcher: "Glob|Grep", hooks: [hook(cmd("search", "exit", "0"))] }] });
    expect((await world.run(["-p", "find"])).code).toBe(0);
    expect(world.records().map((r) => [r.input.tool_name, r.input.tool_input])).toEqual([
      ["Glob", { pattern: "**/*.md", path: join(realpathSync(world.cwd), "docs") }],
      ["Grep", { pattern: "TODO", output_mode: "content", "-n": true }],
    ]);
  });

  it("an MCP server's tool is mcp__<server>__<tool>, with the server's own arguments", async () => {
    world = await hooksWorld([{ tool_calls: [{ id: "m", name: "everything_echo", args: { message: "hi" } }], stop: "tool_use" }, { text: "done" }],
      { PreToolUse: [{ matcher: "mcp__everything__.*", hooks: [hook(cmd("mcp", "exit", "0"))] }] });
    writeMcpExtension(join(world.home, "extensions"), "everything", everything());
    expect((await world.run(["-p", "echo"])).code).toBe(0);
    expect(world.records().map((r) => [r.input.tool_name, r.input.tool_input])).toEqual([["mcp__everything__echo", { message: "hi" }]]);
  });

  it("PostToolUseFailure gets the error of a failed call, and PostToolUse does not run for it", async () => {
    world = await hooksWorld([bashTurn("echo broken >&2; exit 3"), { text: "done" }], {
      PostToolUse: [{ hooks: [hook(cmd("post", "exit", "0"))] }],
      PostToolUseFailure: [{ matcher: "Bash", hooks: [hook(cmd("failure", "exit", "0"))] }],
    });
    expect((await world.run(["-p", "fail"])).code).toBe(0);
    const records = world.records();
    expect(records.map((r) => r.name)).toEqual(["failure"]);
    expect(records[0]!.input).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", is_interrupt: false });
    expect(records[0]!.input.error).toContain("broken");
  });

  it("UserPromptSubmit gets the prompt; Stop gets stop_hook_active and the last assistant message", async () => {
    world = await hooksWorld([{ text: "all done here" }], {
      UserPromptSubmit: [{ hooks: [hook(cmd("prompt", "exit", "0"))] }],
      Stop: [{ hooks: [hook(cmd("stop", "exit", "0"))] }],
    });
    expect((await world.run(["-p", "hello there"])).code).toBe(0);
    const [prompt, stop] = world.records();
    expect(prompt!.input).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "hello there" });
    expect(stop!.input).toMatchObject({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "all done here" });
  });

  it("SessionStart says startup for a new session and resume for a continued one; SessionEnd gets the reason", async () => {
    world = await hooksWorld([{ text: "one" }, { text: "two" }], {
      SessionStart: [{ hooks: [hook(cmd("start", "exit", "0"))] }],
      SessionEnd: [{ hooks: [hook(cmd("end", "exit", "0"))] }],
    });
    expect((await world.run(["-p", "first"])).code).toBe(0);
    expect((await world.run(["-c", "-p", "second"])).code).toBe(0);
    const records = world.records().map((r) => [r.name, r.input.source ?? r.input.reason]);
    expect(records).toEqual([["start", "startup"], ["end", "prompt_input_exit"], ["start", "resume"], ["end", "prompt_input_exit"]]);
    const [start] = world.records();
    expect(start!.input).toMatchObject({ hook_event_name: "SessionStart", model: "claude-sonnet-4-6" });
    expect(existsSync(start!.input.transcript_path)).toBe(true);
  });
});
