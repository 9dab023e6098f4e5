import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { KIT, jsonLines, makeWorld, requestText, ZOT, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("json mode", () => {
  it("first line is session, last line is done, and every line is compact JSON with type first", async () => {
    world = await makeWorld([{ text: "hello world" }]);
    const r = await world.run(["--mode", "json", "hi"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    for (const line of lines) expect(line).toMatch(/^\{"type":"[a-z_]+"/);
    const events = jsonLines(r.stdout);
    expect(events[0]).toMatchObject({ type: "session", provider: "anthropic", model: "claude-sonnet-4-6", protocol_version: 1 });
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn" });
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.delta).join("")).toBe("hello world");
    expect(events.find((e) => e.type === "usage")).toMatchObject({ cumulative: expect.any(Object) });
  });

  it("the full event sequence of a tool step matches the spec's order", async () => {
    world = await makeWorld([
      { text: "Let me look.", tool_calls: [{ name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "Done." },
    ]);
    const r = await world.run(["--json", "-e", KIT, "go"]);
    expect(r.code).toBe(0);
    const lifecycle = jsonLines(r.stdout)
      .filter((e) => ["user_prompt_submit", "turn_start", "assistant_message", "tool_call", "turn_end",
        "permission_decision", "tool_result"].includes(e.type));
    expect(lifecycle.map((e) => e.type)).toEqual([
      "user_prompt_submit", "turn_start", "assistant_message", "tool_call", "turn_end",
      "permission_decision", "tool_result", "turn_start", "assistant_message", "turn_end",
    ]);
    const sequences = lifecycle.map((e) => e.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    const result = lifecycle.find((e) => e.type === "tool_result")!;
    // The guard rewrote the command: the effective args are in the observation.
    expect(result).toMatchObject({ tool_name: "bash", tool_args: { command: "echo GUARDED" }, status: "completed", executed: true });
    expect(lifecycle.find((e) => e.type === "permission_decision")).toMatchObject({ decision: "approved", source: "yolo", stage: "pre_execution" });
  });

  it("an assistant_message block's reason is an ext_notify event naming the extension", async () => {
    world = await makeWorld([{ text: "FORBIDDEN words" }]);
    const events = jsonLines((await world.run(["--json", "-e", KIT, "hi"])).stdout);
    expect(events.filter((e) => e.type === "ext_notify")).toEqual([
      { type: "ext_notify", extension: "kit", level: "warn", message: "assistant message suppressed: SUPPRESSED-BY-POLICY" }]);
    // The response still gets its json assistant_message line (issue 9), with no visible text.
    expect(events.filter((e) => e.type === "text_delta")).toEqual([]);
    expect(events.filter((e) => e.type === "assistant_message")).toMatchObject([{ text: "", content: [] }]);
  });

  it("tool and message events also carry the Go zot's fields, beside zot's own", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "Done." },
    ]);
    const r = await world.run(["--json", "go"]);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const of = (type: string) => events.filter((e) => e.type === type);
    expect(of("user_message")).toEqual([{ type: "user_message", content: [{ type: "text", text: "go" }], time: expect.any(String) }]);
    expect(of("assistant_start")).toHaveLength(2);
    expect(of("tool_use_start")).toEqual([{ type: "tool_use_start", id: "toolu_1", name: "bash" }]);
    expect(of("tool_call")[0]).toMatchObject({ tool_id: "toolu_1", tool_name: "bash", id: "toolu_1", name: "bash", args: { command: "echo hi" } });
    expect(of("tool_result")[0]).toMatchObject({
      tool_id: "toolu_1", status: "completed", result: { is_error: false },
      id: "toolu_1", is_error: false, content: [{ type: "text", text: expect.stringContaining("hi") }],
    });
    expect(of("assistant_message").map((e) => e.content)).toEqual([
      [{ type: "tool_call", id: "toolu_1", name: "bash", args: { command: "echo hi" } }],
      [{ type: "text", text: "Done." }],
    ]);
    expect(new Date(of("assistant_message")[0]!.time).toISOString()).toBe(of("assistant_message")[0]!.time);
    expect(of("turn_end").map((e) => e.stop)).toEqual(["tool_use", "end_turn"]);
  });

  it("an edit's tool_result carries the change's diff in result.diff", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "edit", args: { path: "a.txt", old_text: "beta", new_text: "BETA" } }], stop: "tool_use" },
      { text: "Edited." },
    ]);
    writeFileSync(join(world.cwd, "a.txt"), "alpha\nbeta\n");
    const r = await world.run(["--json", "edit it"]);
    expect(r.code).toBe(0);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result")!;
    expect(result).toMatchObject({ tool_name: "edit", status: "completed", result: { diff: expect.stringContaining("+BETA") } });
  });

  it("/compact ends with compact_done carrying the summary, after post_compact", async () => {
    world = await makeWorld([{ text: "first answer ".repeat(50) }, { text: "second answer ".repeat(50) }, { text: "SUMMARY: two answers" }]);
    await world.run(["--json", "one"]);
    await world.run(["--json", "-c", "two"]);
    const r = await world.run(["--json", "-c", "/compact"]);
    expect(r.code).toBe(0);
    const types = jsonLines(r.stdout).map((e) => e.type);
    expect(types.slice(types.indexOf("post_compact"), types.indexOf("post_compact") + 2)).toEqual(["post_compact", "compact_done"]);
    expect(jsonLines(r.stdout).find((e) => e.type === "compact_done")).toEqual({ type: "compact_done", summary: "SUMMARY: two answers" });
  });

  it("works in a shell pipeline with jq", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "wc -w" } }], stop: "tool_use" },
      { text: "summarized" },
    ]);
    const script = `echo 'some text' | node ${JSON.stringify(ZOT)} --mode json "summarize" | jq -c 'select(.type=="tool_result")'`;
    const { stdout } = await promisify(execFile)("bash", ["-o", "pipefail", "-c", script], { cwd: world.cwd, env: world.env });
    const lines = jsonLines(stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "tool_result", tool_name: "bash", status: "completed" });
    expect(JSON.stringify(world.server.requests[0]!.body.messages)).toContain("some text");
  });

  it("a slash command ends with done, and failures too", async () => {
    world = await makeWorld();
    const ok = jsonLines((await world.run(["--json", "-e", KIT, "/say hi"])).stdout);
    expect(ok.find((e) => e.type === "ext_display")).toEqual({ type: "ext_display", extension: "kit", text: "said: hi" });
    expect(ok.at(-1)).toEqual({ type: "done", stop: "end_turn" });
    const bad = await world.run(["--json", "/exit"]);
    expect(bad.code).toBe(1);
    expect(jsonLines(bad.stdout).slice(-2)).toEqual([
      { type: "error", message: "/exit works only in interactive mode" },
      { type: "done", stop: "error", error: "/exit works only in interactive mode" },
    ]);
  });

  it("a line starting with / that names no command is a prompt for the model", async () => {
    world = await makeWorld([{ text: "install it" }]);
    const r = await world.run(["--json", "-e", KIT, "/bin/sh is missing, why?"]);
    expect(r.code).toBe(0);
    expect(requestText(world.server.requests[0]!.body)).toContain("/bin/sh is missing, why?");
    expect(jsonLines(r.stdout).at(-1)).toEqual({ type: "done", stop: "end_turn" });
  });

  it("a recovered request prints retry lines, no error, then done end_turn (jq's select(.type==\"error\") stays empty)", async () => {
    world = await makeWorld([{ type: "error", status: 529, message: "overloaded", retry_after_ms: 10 }, { type: "error", status: 500, message: "boom", retry_after_ms: 10 },
      { text: "fine" }]);
    const r = await world.run(["--json", "hi"]);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.filter((l) => l.type === "error")).toEqual([]);
    expect(lines.filter((l) => l.type === "retry")).toEqual([
      { type: "retry", attempt: 1, delay_ms: 10, status: 529, message: expect.stringContaining("overloaded") },
      { type: "retry", attempt: 2, delay_ms: 10, status: 500, message: expect.stringContaining("boom") },
    ]);
    expect(lines.at(-1)).toEqual({ type: "done", stop: "end_turn" });
  });

  it("a failed run emits error with the message right before done, and exits 1", async () => {
    world = await makeWorld([{ type: "error", status: 400, message: "prompt is too long" }]);
    const r = await world.run(["--json", "hi"]);
    expect(r.code).toBe(1);
    const [error, done] = jsonLines(r.stdout).slice(-2);
    expect(done).toMatchObject({ type: "done", stop: "error", error: expect.stringContaining("prompt is too long") });
    expect(error).toEqual({ type: "error", message: done!.error });
  });

  it("an interrupted run exits 130 and leaves a loadable session", async () => {
    world = await makeWorld([{ text: "a b c d e f g h i j k l m n o p", chunk_delay_ms: 200 }, { text: "resumed fine" }]);
    const child = world.start(["--json", "long answer please"]);
    let stdout = "";
    let interrupted = false;
    child.stdout!.on("data", (d) => {
      stdout += d;
      if (!interrupted && stdout.includes('"text_delta"')) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    child.stdin!.end();
    const code = await new Promise((done) => child.on("close", done));
    expect(code).toBe(130);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: "done", stop: "aborted" });
    const r = await world.run(["-p", "-c", "go on"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("resumed fine\n");
    expect(JSON.stringify(world.server.requests[1]!.body.messages)).toContain("long answer please");
    const dir = join(world.home, "sessions", readdirSync(join(world.home, "sessions"))[0]!);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it("nothing but JSON lines reaches stdout when an extension writes garbage and fails", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["--json", "-e", join(world.cwd, "missing-ext"), "hi"]);
    const events = jsonLines(r.stdout);
    expect(events.some((e) => e.type === "ext_error")).toBe(true);
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn" });
  });
});
