// Which hooks run, and how: matchers (exact names, `|` lists, regular expressions, `*` and empty),
// the `if` permission-rule filter, matching hooks in parallel, identical commands once, and a
// per-hook timeout after which the hook is stopped and the call goes on.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashTurn, hook, hooksWorld, LANGUAGES, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const calls = [
  { tool_calls: [{ id: "b", name: "bash", args: { command: "git status --short" } }], stop: "tool_use" },
  { tool_calls: [{ id: "r", name: "read", args: { path: "notes.md" } }], stop: "tool_use" },
  { tool_calls: [{ id: "e", name: "edit", args: { path: "src/app.ts", old_text: "a", new_text: "b" } }], stop: "tool_use" },
  { text: "done" },
];

/** Which hook saw which tool call, as "hook:tool_use_id". */
const seen = (w: HookWorld) => w.records().map((r) => `${r.name}:${r.input.tool_use_id}`).sort();

/** Live processes whose command line contains `text`. */
function processesRunning(text: string): number[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ").includes(text);
    } catch {
      return false;
    }
  }).map(Number);
}

describe.each(LANGUAGES)("hook matchers and running ($lang)", ({ hook: cmd }) => {
  it("an exact matcher selects that tool, a | list each of its tools, and a near name none", async () => {
    world = await hooksWorld(calls, { PreToolUse: [
      { matcher: "Bash", hooks: [hook(cmd("bash", "exit", "0"))] },
      { matcher: "Read|Edit", hooks: [hook(cmd("list", "exit", "0"))] },
      { matcher: "Edi", hooks: [hook(cmd("near", "exit", "0"))] },
    ] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(seen(world)).toEqual(["bash:b", "list:e", "list:r"]);
  });

  it("a regular expression is tested against the name; * and an empty or absent matcher select every tool", async () => {
    world = await hooksWorld(calls, { PreToolUse: [
      { matcher: "^(Re|Ed)", hooks: [hook(cmd("regex", "exit", "0"))] },
      { matcher: "*", hooks: [hook(cmd("star", "exit", "0"))] },
      { matcher: "", hooks: [hook(cmd("empty", "exit", "0"))] },
      { hooks: [hook(cmd("absent", "exit", "0"))] },
    ] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(seen(world)).toEqual(["absent:b", "absent:e", "absent:r", "empty:b", "empty:e", "empty:r", "regex:e", "regex:r", "star:b", "star:e", "star:r"]);
  });

  it("the if filter runs a hook only for the calls its permission rule covers", async () => {
    world = await hooksWorld([...calls.slice(0, 3), { tool_calls: [{ id: "b2", name: "bash", args: { command: "echo hi" } }], stop: "tool_use" }, { text: "done" }],
      { PreToolUse: [
        { matcher: "Bash", hooks: [hook(cmd("git", "exit", "0"), { if: "Bash(git *)" })] },
        { matcher: "Edit", hooks: [hook(cmd("ts", "exit", "0"), { if: "Edit(*.ts)" }), hook(cmd("md", "exit", "0"), { if: "Edit(*.md)" })] },
      ] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(seen(world)).toEqual(["git:b", "ts:e"]);
  });

  it("the hooks a call matches run in parallel", async () => {
    const marks = mkdtempSync(join(tmpdir(), "zot-parallel-"));
    world = await hooksWorld([bashTurn("echo hi"), { text: "done" }], { PreToolUse: [{ matcher: "Bash", hooks: [
      hook(cmd("a", "touch-and-wait", join(marks, "a.mark"), join(marks, "b.mark"))),
      hook(cmd("b", "touch-and-wait", join(marks, "b.mark"), join(marks, "a.mark"))),
    ] }] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    // Each waited for the other's mark: one after the other, the first would have waited in vain.
    expect(readFileSync(`${world.record}.seen`, "utf8").trim().split("\n").sort()).toEqual([`saw ${join(marks, "a.mark")}`, `saw ${join(marks, "b.mark")}`]);
    rmSync(marks, { recursive: true, force: true });
  });

  it("an identical command in two matching groups runs once", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "done" }], { PreToolUse: [
      { matcher: "Bash", hooks: [hook(cmd("same", "exit", "0"))] },
      { matcher: "*", hooks: [hook(cmd("same", "exit", "0"))] },
    ] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(seen(world)).toEqual(["same:call_1"]);
  });

  it("a hook past its timeout is stopped, the user is told, and the call goes on", async () => {
    const secs = `${311 + LANGUAGES.findIndex((l) => l.hook === cmd)}.${process.pid % 1000}`;
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "done" }],
      { PreToolUse: [{ matcher: "Bash", hooks: [hook(cmd("slow", "sleep", secs), { timeout: 1 })] }] });
    const r = await world.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("timed out after 1 s");
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
    expect(processesRunning(`sleep ${secs}`)).toEqual([]);
  });

  it("what a hook leaves running in the background is stopped when it exits", async () => {
    const secs = `${421 + LANGUAGES.findIndex((l) => l.hook === cmd)}.${process.pid % 1000}`;
    world = await hooksWorld([bashTurn("echo hi"), { text: "done" }], { PreToolUse: [{ matcher: "Bash", hooks: [hook(cmd("bg", "spawn", secs))] }] });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(world.records()).toHaveLength(1);
    expect(processesRunning(`sleep ${secs}`)).toEqual([]);
  });

  it("a SessionStart matcher selects by the session's source", async () => {
    world = await hooksWorld([{ text: "one" }, { text: "two" }], { SessionStart: [
      { matcher: "startup", hooks: [hook(cmd("new", "exit", "0"))] },
      { matcher: "resume", hooks: [hook(cmd("again", "exit", "0"))] },
    ] });
    expect((await world.run(["-p", "first"])).code).toBe(0);
    expect((await world.run(["-c", "-p", "second"])).code).toBe(0);
    expect(world.records().map((r) => r.name)).toEqual(["new", "again"]);
  });
});
