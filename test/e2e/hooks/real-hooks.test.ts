// Real hook scripts, unchanged (test/fixtures/claude-plugins, with their licences), configured as
// hooks in config.json the way their hooks.json names them (${CLAUDE_PLUGIN_ROOT} expanded, and
// set for the scripts that read it): hookify's four Python hooks with its example rules,
// ralph-loop's stop hook looping until its completion promise or its iteration limit, and
// explanatory-output-style's SessionStart context.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../../support/model-server.ts";
import { ROOT } from "../support.ts";
import { bashTurn, hooksWorld, q, sentToModel, type HookWorld } from "./support.ts";

const PLUGINS = join(ROOT, "test", "fixtures", "claude-plugins");

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A plugin's hooks/hooks.json as config.json hooks: its root expanded, and in the hooks' environment. */
function pluginHooks(plugin: string): Record<string, unknown> {
  const root = join(PLUGINS, plugin);
  const text = readFileSync(join(root, "hooks", "hooks.json"), "utf8");
  const { hooks } = JSON.parse(text) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  for (const groups of Object.values(hooks)) {
    for (const group of groups) {
      for (const h of group.hooks) h.command = `CLAUDE_PLUGIN_ROOT=${q(root)} ${h.command.replaceAll("${CLAUDE_PLUGIN_ROOT}", root)}`;
    }
  }
  return hooks;
}

describe("hookify's hooks with its example rules", () => {
  async function hookifyWorld(script: Turn[], rules: string[]): Promise<HookWorld> {
    const w = await hooksWorld(script, pluginHooks("hookify"));
    mkdirSync(join(w.cwd, ".claude"), { recursive: true });
    for (const rule of rules) {
      const example = readFileSync(join(PLUGINS, "hookify", "examples", `${rule}.local.md`), "utf8");
      // The user switches the rule on, as hookify's README says to.
      writeFileSync(join(w.cwd, ".claude", `hookify.${rule}.local.md`), example.replace("enabled: false", "enabled: true"));
    }
    return w;
  }

  it("blocks rm -rf: the command never runs, and the user sees the rule's message", async () => {
    world = await hookifyWorld([bashTurn("rm -rf keep"), { text: "ok" }], ["dangerous-rm"]);
    mkdirSync(join(world.cwd, "keep"));
    const r = await world.run(["-p", "clean up"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.cwd, "keep"))).toBe(true);
    expect(r.stderr).toContain("Dangerous rm command detected");
    expect(sentToModel(world, 1)).toContain("blocked");
  });

  it("warns about console.log in an edit and lets the edit happen", async () => {
    // The rule's plain pattern is matched against an edit's new text (hookify's `new_text` field).
    world = await hookifyWorld([
      { tool_calls: [{ id: "e", name: "edit", args: { path: "app.js", old_text: "// todo", new_text: "console.log('hi');" } }], stop: "tool_use" }, { text: "ok" },
    ], ["console-log-warning"]);
    writeFileSync(join(world.cwd, "app.js"), "// todo\n");
    const r = await world.run(["-p", "write it"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.cwd, "app.js"), "utf8")).toContain("console.log");
    expect(r.stderr).toContain("Console.log detected");
  });

  it("requires tests before stopping: the agent is sent back until the transcript shows a test run", async () => {
    // The example's not_contains compares its pattern as literal text, so the test run names it literally.
    world = await hookifyWorld([{ text: "all fixed" }, bashTurn("echo 'npm test|pytest|cargo test'"), { text: "tests ran, done" }], ["require-tests-stop"]);
    const r = await world.run(["-p", "fix the bug"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(3);
    expect(sentToModel(world, 1)).toContain("Tests not detected in transcript");
    expect(r.stdout).toContain("tests ran, done");
  });

  it("its UserPromptSubmit hook runs on every prompt without getting in the way", async () => {
    world = await hookifyWorld([{ text: "hello" }], ["dangerous-rm"]);
    const r = await world.run(["-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("Hookify error");
    expect(r.stderr).not.toContain("Hookify import error");
  });
});

describe("ralph-loop's stop hook", () => {
  /** Starts a loop as /ralph-loop does: its own setup script writes the state file. */
  function startLoop(w: HookWorld, args: string[]): void {
    execFileSync("bash", [join(PLUGINS, "ralph-loop", "scripts", "setup-ralph-loop.sh"), ...args], { cwd: w.cwd, stdio: "ignore" });
  }

  it("feeds the prompt back until the completion promise appears, then lets the agent stop", async () => {
    world = await hooksWorld([{ text: "step one" }, { text: "step two" }, { text: "finished <promise>ALL GREEN</promise>" }], pluginHooks("ralph-loop"));
    startLoop(world, ["Make the tests pass", "--completion-promise", "ALL GREEN", "--max-iterations", "10"]);
    const r = await world.run(["-p", "Make the tests pass"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(3);
    expect(sentToModel(world, 1)).toContain("Make the tests pass");
    expect(r.stderr).toContain("Ralph iteration 2");
    expect(existsSync(join(world.cwd, ".claude", "ralph-loop.local.md"))).toBe(false);
  });

  it("stops at its iteration limit", async () => {
    world = await hooksWorld([{ text: "try 1" }, { text: "try 2" }, { text: "try 3" }], pluginHooks("ralph-loop"));
    startLoop(world, ["Polish the docs", "--max-iterations", "2"]);
    const r = await world.run(["-p", "Polish the docs"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(existsSync(join(world.cwd, ".claude", "ralph-loop.local.md"))).toBe(false);
  });
});

describe("explanatory-output-style's SessionStart hook", () => {
  it("gives the model its explanatory instructions", async () => {
    world = await hooksWorld([{ text: "ok" }], pluginHooks("explanatory-output-style"));
    const r = await world.run(["-p", "explain the code"]);
    expect(r.code).toBe(0);
    expect(sentToModel(world, 0)).toContain("You are in 'explanatory' output style mode");
  });
});

