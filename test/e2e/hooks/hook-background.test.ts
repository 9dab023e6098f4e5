// Hooks that run in the background, as Claude Code runs them: `async: true` and `asyncRewake: true`
// in the settings, and a hook that answers `{"async": true}` on its first line and goes on by
// itself. None holds the moment; what they say at the end reaches the model with the next tool
// result or prompt; none outlives the run.
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { bashTurn, hook, hooksWorld, LANGUAGES, sentToModel, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A bash call that waits until `condition` holds (the test hooks' record is $HOOK_RECORD), and a moment more for zot to hear the hook's end. */
const waitUntil = (condition: string) => bashTurn(`until ${condition}; do sleep 0.05; done; sleep 1`, "call_2");

const running = (token: string): boolean => {
  try {
    return execFileSync("pgrep", ["-f", token], { encoding: "utf8" }).trim() !== "";
  } catch {
    return false;
  }
};

describe.each(LANGUAGES)("background hooks ($lang)", ({ hook: cmd }) => {
  it("a hook whose first line is {\"async\": true} does not hold its moment; its later context reaches the model", async () => {
    world = await hooksWorld([bashTurn("echo one", "call_1"), waitUntil(`[ -e "$HOOK_RECORD.bg-check.done" ]`), { text: "done" }], (reply) => {
      const later = reply("later", { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the background check found nothing" } });
      return { PostToolUse: [{ matcher: "Bash", hooks: [hook(cmd("bg-check", "later", "0.3", later))] }] };
    });
    const r = await world.run(["-p", "go"]);
    expect(r.code, r.stderr).toBe(0);
    // Not in the result of the call that started it (the hook had not answered), but in the next one's.
    expect(sentToModel(world, 1)).not.toContain("the background check found nothing");
    expect(sentToModel(world, 2)).toContain("the background check found nothing");
    expect(r.stderr).not.toContain("failed");
  });

  it("a hook that went on in the background is stopped when the run ends: nothing is left running", async () => {
    const token = `bg-left-${process.pid}-${Math.random().toString(36).slice(2)}`;
    world = await hooksWorld([{ text: "hello" }], (reply) => ({
      SessionStart: [{ hooks: [hook(cmd(token, "later", "600", reply("never", "{}")))] }],
    }));
    const r = await world.run(["-p", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(world.records().map((x) => x.name)).toContain(token);
    expect(running(token)).toBe(false);
  });

  it("async: true runs beside the call; its additionalContext comes with the next tool result", async () => {
    world = await hooksWorld([bashTurn("echo one", "call_1"), waitUntil(`grep -q bg-async "$HOOK_RECORD"`), { text: "done" }], (reply) => ({
      PostToolUse: [{ matcher: "Bash", hooks: [hook(cmd("bg-async", "json",
        reply("async-said", { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: two warnings" } })), { async: true })] }],
    }));
    const r = await world.run(["-p", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(sentToModel(world, 2)).toContain("lint: two warnings");
  });

  it("asyncRewake: an exit 2 brings its stderr to the model after the rewake message; exit 0 brings nothing", async () => {
    world = await hooksWorld([bashTurn("git commit -m x || true", "call_1"),
      waitUntil(`grep -q quiet "$HOOK_RECORD" && grep -q review "$HOOK_RECORD"`), { text: "done" }], {
      PostToolUse: [{ matcher: "Bash", hooks: [
        hook(cmd("review", "exit", "2", "SQL built from user input in db.py"), { asyncRewake: true, rewakeMessage: "Background review findings:" }),
        hook(cmd("quiet", "exit", "0", "nothing to see"), { asyncRewake: true, rewakeMessage: "Quiet findings:" }),
      ] }],
    });
    const r = await world.run(["-p", "commit"]);
    expect(r.code, r.stderr).toBe(0);
    const sent = sentToModel(world, 2);
    expect(sent).toContain("Background review findings:");
    expect(sent).toContain("SQL built from user input in db.py");
    expect(sent).not.toContain("Quiet findings:");
  });
});
