// Where hooks come from and what they can reach: the variables Claude Code gives them and
// nothing that looks like a credential, no controlling terminal; a project's .claude settings
// only after project trust, pinned with its hook scripts; doctor lists each hook; a broken
// settings file is named and the rest keeps working.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ZOT } from "../support.ts";
import { bashTurn, hook, hooksWorld, LANGUAGES, q, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const envOf = (file: string) => Object.fromEntries(readFileSync(file, "utf8").split("\n").filter((l) => l.includes("="))
  .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));

describe.each(LANGUAGES)("what a hook can reach ($lang)", ({ hook: cmd }) => {
  it("gets CLAUDE_PROJECT_DIR, CLAUDE_ENV_FILE for SessionStart only, and no variable that looks like a credential", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "done" }], (reply) => ({
      SessionStart: [{ hooks: [hook(cmd("start", "env", reply("start-env", "")))] }],
      PreToolUse: [{ hooks: [hook(cmd("pre", "env", reply("pre-env", "")))] }],
    }));
    const root = join(world.home, "..");
    const r = await world.run(["-p", "go"], { env: { ANTHROPIC_API_KEY: "sk-ant-api03-hook-must-not-see", DEPLOY_TOKEN: "tok-hook-must-not-see", PLAIN_SETTING: "visible" } });
    expect(r.code).toBe(0);
    const start = envOf(join(root, "start-env.json"));
    const pre = envOf(join(root, "pre-env.json"));
    expect(realpathSync(start.CLAUDE_PROJECT_DIR!)).toBe(realpathSync(world.cwd));
    expect(start.CLAUDE_ENV_FILE).toBeTruthy();
    expect(pre.CLAUDE_ENV_FILE).toBeUndefined();
    expect(pre.PLAIN_SETTING).toBe("visible");
    const all = readFileSync(join(root, "start-env.json"), "utf8") + readFileSync(join(root, "pre-env.json"), "utf8");
    expect(all).not.toContain("must-not-see");
  });

  it("has no controlling terminal, even when zot runs in one", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "done" }], (reply) => ({
      PreToolUse: [{ hooks: [hook(cmd("tty", "tty", reply("tty", "")))] }],
    }));
    // `script` runs zot in a real terminal (the shell before it proves there is one); the hook still has none.
    const line = `sh -c '(exec </dev/tty) 2>/dev/null && echo SHELL-HAS-TTY'; ${q(process.execPath)} ${q(ZOT)} -p go`;
    // Asynchronously: the scripted model server answers from this process.
    const child = spawn("script", ["-qec", line, "/dev/null"], { cwd: world.cwd, env: world.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    await new Promise((done) => child.on("close", done));
    expect(out).toContain("SHELL-HAS-TTY");
    expect(world.records()).toHaveLength(1);
    expect(readFileSync(join(world.home, "..", "tty.json"), "utf8").trim()).toBe("no terminal");
  });
});

describe("CLAUDE_ENV_FILE", () => {
  it("what SessionStart hooks export there reaches every later bash command", async () => {
    world = await hooksWorld([bashTurn("echo \"flag is $FLAG_FROM_HOOK\""), { text: "done" }], {
      SessionStart: [{ hooks: [hook(`echo 'export FLAG_FROM_HOOK=green' >> "$CLAUDE_ENV_FILE"`)] }],
    });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain("flag is green");
  });
});

describe("hooks of a project's .claude settings", () => {
  const guard = (w: HookWorld, file = "settings.json") => {
    mkdirSync(join(w.cwd, ".claude", "hooks"), { recursive: true });
    writeFileSync(join(w.cwd, ".claude", "hooks", "guard.sh"), "#!/bin/sh\necho 'the project guard says no' >&2\nexit 2\n");
    writeFileSync(join(w.cwd, ".claude", file), JSON.stringify({ permissions: { allow: [] }, hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [hook(`sh ${q(join(w.cwd, ".claude", "hooks", "guard.sh"))}`, { timeout: 5 })] }],
    } }));
  };

  it("run only once the project is trusted, and wait again when a hook script changes", async () => {
    world = await hooksWorld([bashTurn("echo untrusted-ran"), { text: "a" }, bashTurn("echo trusted-ran"), { text: "b" }, bashTurn("echo edited-ran"), { text: "c" }], {});
    guard(world);
    const untrusted = await world.run(["-p", "go"]);
    expect(untrusted.stderr).toContain('"claude-settings" is not started');
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain("untrusted-ran");
    const trust = await world.run(["ext", "trust", "--project", "--yes"]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("claude-settings");
    await world.run(["-p", "go"]);
    expect(JSON.stringify(world.server.requests[3]!.body)).toContain("the project guard says no");
    writeFileSync(join(world.cwd, ".claude", "hooks", "guard.sh"), "#!/bin/sh\nexit 0\n");
    const edited = await world.run(["-p", "go"]);
    expect(edited.stderr).toMatch(/"claude-settings" is not started: its files changed/);
  });

  it("settings.local.json holds hooks too, under its own name", async () => {
    world = await hooksWorld([bashTurn("echo hi"), { text: "a" }], {});
    guard(world, "settings.local.json");
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    await world.run(["-p", "go"]);
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain("the project guard says no");
  });
});

describe("hooks in doctor, and broken settings", () => {
  it("zot ext doctor lists each hook with its source, event, matcher, command and timeout, and what cannot run", async () => {
    world = await hooksWorld([], { PreToolUse: [{ matcher: "Bash|Edit", hooks: [hook("echo pre", { timeout: 30, if: "Bash(git *)" })] }],
      Stop: [{ hooks: [hook("echo stop")] }, { hooks: [{ type: "prompt", prompt: "is it done?" }] }],
      TeammateIdle: [{ hooks: [hook("echo idle")] }] });
    const r = await world.run(["ext", "doctor"]);
    expect(r.stdout).toContain("user-hooks");
    expect(r.stdout).toContain(join(world.home, "config.json"));
    expect(r.stdout).toContain("hook:      PreToolUse [Bash|Edit] if Bash(git *): echo pre (timeout 30 s)");
    expect(r.stdout).toContain("hook:      Stop: echo stop (timeout 600 s)");
    expect(r.stdout).toContain('"prompt" hooks are not supported');
    expect(r.stdout).toContain("TeammateIdle hooks do not run in zot (zot has no agent teams)");
  });

  it("disableAllHooks: true in a file keeps its hooks from running, and doctor says they are disabled", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "a" }], { PreToolUse: [{ hooks: [hook("exit 2")] }] }, { disableAllHooks: true });
    expect((await world.run(["-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
    expect((await world.run(["ext", "list"])).stdout).toMatch(/user-hooks\s+-\s+global\s+disabled/);
  });

  it("a settings file that is not JSON is an error naming it, and the user's hooks still run", async () => {
    world = await hooksWorld([bashTurn("touch ran.txt"), { text: "a" }], { PreToolUse: [{ hooks: [hook("echo user hook says no >&2; exit 2")] }] });
    mkdirSync(join(world.cwd, ".claude"), { recursive: true });
    writeFileSync(join(world.cwd, ".claude", "settings.json"), "{ \"hooks\": ");
    const r = await world.run(["-p", "go", "--trust-project"]);
    expect(r.stderr).toContain(join(world.cwd, ".claude", "settings.json"));
    expect(r.stderr).toContain("invalid JSON");
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain("user hook says no");
  });
});
