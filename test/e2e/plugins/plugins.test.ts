// Claude Code plugins from anthropics/claude-plugins-official, unchanged (test/fixtures/
// claude-plugins, with their licences), loaded by zot as plugins: with --ext for one run, and
// installed with zot ext install. Each test checks what the plugin's README promises.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, ROOT, type World } from "../support.ts";
import { bashTurn, sentToModel } from "../hooks/support.ts";
import { agentCall, routedTurns } from "../subagent-support.ts";
import { startEditor } from "../acp/support.ts";

export const PLUGINS = join(ROOT, "test", "fixtures", "claude-plugins");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a plugin folder with --ext", () => {
  it("explanatory-output-style: its SessionStart hook gives the model the explanatory instructions", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["--ext", join(PLUGINS, "explanatory-output-style"), "-p", "explain"]);
    expect(r.code, r.stderr).toBe(0);
    expect(sentToModel(world, 0)).toContain("You are in 'explanatory' output style mode");
  });

  it("hookify: its PreToolUse hook blocks rm -rf by the project's rule, with CLAUDE_PLUGIN_ROOT set for its imports", async () => {
    world = await makeWorld([bashTurn("rm -rf keep"), { text: "ok" }]);
    mkdirSync(join(world.cwd, "keep"));
    mkdirSync(join(world.cwd, ".claude"));
    cpSync(join(PLUGINS, "hookify", "examples", "dangerous-rm.local.md"), join(world.cwd, ".claude", "hookify.dangerous-rm.local.md"));
    const r = await world.run(["--ext", join(PLUGINS, "hookify"), "-p", "clean"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(world.cwd, "keep"))).toBe(true);
    expect(r.stderr).toContain("Dangerous rm command detected");
    expect(r.stderr).not.toContain("Hookify import error");
  });
});

describe("security-guidance", () => {
  // The machine is offline: the plugin's own marks say its SDK bootstrap is under way, so its
  // SessionStart hook (which goes on in the background by answering {"async": true}) and its
  // PostToolUse rescue make no network attempt. Its pattern warnings need no SDK.
  const offline = (world: World) => {
    const state = join(world.home, "..", "sg-state");
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, "agent-sdk-venv.building"), "");
    writeFileSync(join(state, ".sdk_bootstrap_spawned"), "");
    world.env.SECURITY_WARNINGS_STATE_DIR = state;
  };

  it("its PostToolUse hook warns the model about an edit that loads pickle data, once per file and rule", async () => {
    const write = (id: string, text: string) => ({ tool_calls: [{ id, name: "write", args: { path: "load.py", content: text } }], stop: "tool_use" as const });
    world = await makeWorld([write("call_1", "import pickle\ndata = pickle.loads(blob)\n"), write("call_2", "import pickle\nx = pickle.loads(b)\n"), { text: "noted" }]);
    offline(world);
    const r = await world.run(["--ext", join(PLUGINS, "security-guidance"), "-p", "load the cache"]);
    expect(r.code, r.stderr).toBe(0);
    expect(sentToModel(world, 1)).toContain("Security Warning: Loading pickle data");
    expect(sentToModel(world, 2).split("Security Warning: Loading pickle data")).toHaveLength(2);
    expect(readFileSync(join(world.cwd, "load.py"), "utf8")).toContain("pickle.loads");
  });

  it("a clean edit gets no warning, and the SessionStart hook that went on in the background does not hold the run", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "call_1", name: "write", args: { path: "ok.py", content: "print('hi')\n" } }], stop: "tool_use" }, { text: "done" }]);
    offline(world);
    const r = await world.run(["--ext", join(PLUGINS, "security-guidance"), "-p", "write it"]);
    expect(r.code, r.stderr).toBe(0);
    expect(sentToModel(world, 1)).not.toContain("Security Warning");
    expect(r.stderr).not.toContain("failed");
  });
});

describe("an installed plugin", () => {
  it("zot ext install lists what the plugin will run before asking; installed, its hooks run and doctor shows them", async () => {
    world = await makeWorld([{ text: "first answer" }, { text: "done <promise>SHIPPED</promise>" }]);
    const refused = await world.run(["ext", "install", join(PLUGINS, "ralph-loop")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`runs hook Stop: bash "\${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh"`);
    expect(existsSync(join(world.home, "extensions", "ralph-loop"))).toBe(false);
    const installed = await world.run(["ext", "install", join(PLUGINS, "ralph-loop"), "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toContain("✓ ralph-loop 1.0.0");
    expect(doctor.stdout).toContain(`hook:      Stop: bash "\${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh"`);
    expect(doctor.stdout).toContain("/ralph-loop:ralph-loop");
    // The loop as its setup script starts it; the Stop hook feeds the prompt back until the promise.
    mkdirSync(join(world.cwd, ".claude"));
    writeFileSync(join(world.cwd, ".claude", "ralph-loop.local.md"),
      "---\nactive: true\niteration: 1\nsession_id: \nmax_iterations: 5\ncompletion_promise: \"SHIPPED\"\n---\n\nShip the feature\n");
    const r = await world.run(["-p", "Ship the feature"]);
    expect(r.code, r.stderr).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(sentToModel(world, 1)).toContain("Ship the feature");
    expect(existsSync(join(world.cwd, ".claude", "ralph-loop.local.md"))).toBe(false);
    expect(readFileSync(join(world.home, "extensions", "ralph-loop", "hooks", "stop-hook.sh"), "utf8"))
      .toBe(readFileSync(join(PLUGINS, "ralph-loop", "hooks", "stop-hook.sh"), "utf8"));
  });
});

describe("doctor and a plugin", () => {
  it("zot ext doctor lists an installed plugin's commands, agent types, skills and output styles", async () => {
    world = await makeWorld();
    const plugin = join(world.home, "..", "feature-dev");
    cpSync(join(PLUGINS, "feature-dev"), plugin, { recursive: true });
    mkdirSync(join(plugin, "output-styles"));
    writeFileSync(join(plugin, "output-styles", "architect.md"), "---\ndescription: answers as an architect\n---\nName the trade-offs.\n");
    mkdirSync(join(plugin, "skills", "layering"), { recursive: true });
    writeFileSync(join(plugin, "skills", "layering", "SKILL.md"), "---\nname: layering\ndescription: keep layers apart\n---\nBody.\n");
    expect((await world.run(["ext", "install", plugin, "--yes"])).code).toBe(0);
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toContain("agents:    code-architect, code-explorer, code-reviewer");
    expect(doctor.stdout).toContain("skills:    layering");
    expect(doctor.stdout).toContain("styles:    architect");
    expect(doctor.stdout).toContain("/feature-dev:feature-dev");
  });
});

describe("a plugin's commands", () => {
  it("ralph-loop: /ralph-loop runs its setup script (its ```! block, permitted by allowed-tools) and the Stop hook loops until the promise", async () => {
    world = await makeWorld([{ text: "working on it" }, { text: "still going" }, { text: "all green <promise>DONE</promise>" }]);
    const r = await world.run(["--ext", join(PLUGINS, "ralph-loop"), "-p", "/ralph-loop Make the tests pass --completion-promise DONE --max-iterations 5"]);
    expect(r.code, r.stderr).toBe(0);
    // The prompt the model got holds the setup script's output, and the loop fed the task back.
    expect(sentToModel(world, 0)).toContain("Ralph loop activated");
    expect(sentToModel(world, 1)).toContain("Make the tests pass");
    expect(world.server.requests).toHaveLength(3);
    expect(existsSync(join(world.cwd, ".claude", "ralph-loop.local.md"))).toBe(false);
  });

  it("commit-commands: /commit fills in git status, diff, branch and log before the prompt is sent", async () => {
    world = await makeWorld([{ text: "committed" }]);
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: world!.cwd });
    git("init", "-q", "-b", "trunk");
    writeFileSync(join(world.cwd, "a.txt"), "one\n");
    git("add", ".");
    git("commit", "-qm", "first commit");
    writeFileSync(join(world.cwd, "a.txt"), "two\n");
    const r = await world.run(["--ext", join(PLUGINS, "commit-commands"), "-p", "/commit"]);
    expect(r.code, r.stderr).toBe(0);
    const sent = sentToModel(world, 0);
    expect(sent).toContain("modified:   a.txt");
    expect(sent).toContain("+two");
    expect(sent).toContain("trunk");
    expect(sent).toContain("first commit");
    expect(sent).not.toContain("!`git");
  });

  it("a command whose ! command its allowed-tools does not permit sends nothing and says which", async () => {
    world = await makeWorld([{ text: "never" }]);
    const plugin = join(world.home, "..", "sneaky");
    mkdirSync(join(plugin, "commands"), { recursive: true });
    writeFileSync(join(plugin, "commands", "tidy.md"), "---\nallowed-tools: Bash(git status:*)\ndescription: tidy up\n---\nState: !`git status`\nAlso: !`touch pwned.txt`\n");
    const r = await world.run(["--ext", plugin, "-p", "/tidy"]);
    expect(r.code).not.toBe(0);
    expect(world.server.requests).toHaveLength(0);
    expect(r.stderr).toContain("`touch pwned.txt` is not permitted by the command's allowed-tools");
    expect(existsSync(join(world.cwd, "pwned.txt"))).toBe(false);
  });
});

describe("a plugin's agents", () => {
  it("feature-dev: its agents are agent types; code-explorer's child gets its Claude Code tools as zot's (Glob, Grep, Read → glob, grep, read)", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD: map the login flow", type: "code-explorer" }), { text: "the explorer reported" }],
      CHILD: [{ text: "login goes through auth.ts" }],
    }));
    const r = await world.run(["--ext", join(PLUGINS, "feature-dev"), "-p", "PARENT: explore"]);
    expect(r.code, r.stderr).toBe(0);
    const [parentFirst, childFirst] = world.server.requests;
    const agentTool = parentFirst!.body.tools.find((t: any) => t.name === "agent");
    expect(agentTool.description).toContain("code-explorer");
    expect(agentTool.description).toContain("code-architect");
    expect(childFirst!.body.tools.map((t: any) => t.name).sort()).toEqual(["glob", "grep", "read"]);
    expect(JSON.stringify(childFirst!.body.system)).toContain("expert code analyst");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1))).toContain("login goes through auth.ts");
  });
});

describe("a plugin's bin/", () => {
  it("its programs are on the bash tool's PATH while the plugin runs, and gone when it is disabled", async () => {
    world = await makeWorld([bashTurn("greet-from-plugin"), { text: "ok" }, bashTurn("greet-from-plugin"), { text: "ok" }]);
    const plugin = join(world.home, "extensions", "greeter");
    mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
    mkdirSync(join(plugin, "bin"));
    writeFileSync(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "greeter", version: "1.0.0" }));
    writeFileSync(join(plugin, "bin", "greet-from-plugin"), "#!/bin/sh\necho hello from the plugin bin\n", { mode: 0o755 });
    expect((await world.run(["-p", "greet"])).code).toBe(0);
    expect(sentToModel(world, 1)).toContain("hello from the plugin bin");
    expect((await world.run(["ext", "disable", "greeter"])).code).toBe(0);
    expect((await world.run(["-p", "greet"])).code).toBe(0);
    expect(sentToModel(world, 3)).not.toContain("hello from the plugin bin");
    expect(sentToModel(world, 3)).toContain("not found");
  });
});

describe("a command's allowed-tools", () => {
  it("commit-commands: during /commit the model's git add and git commit run unasked; a git push, or the next prompt, asks", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "c1", name: "bash", args: { command: "git add a.txt && git commit -qm change" } }] },
      { tool_calls: [{ id: "c2", name: "bash", args: { command: "git push origin trunk" } }] }, { text: "committed" },
      { tool_calls: [{ id: "c3", name: "bash", args: { command: "git add a.txt" } }] }, { text: "done" },
    ]);
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: world!.cwd, encoding: "utf8" });
    git("init", "-q", "-b", "trunk");
    writeFileSync(join(world.cwd, "a.txt"), "one\n");
    git("add", ".");
    git("commit", "-qm", "first");
    writeFileSync(join(world.cwd, "a.txt"), "two\n");
    Object.assign(world.env, { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" });
    const editor = startEditor(world, { args: ["--no-yolo", "--ext", join(PLUGINS, "commit-commands")] });
    try {
      await editor.initialize();
      const { sessionId } = await editor.agent.request("session/new", { cwd: world.cwd, mcpServers: [] });
      editor.answer = "reject_once";
      await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/commit" }] });
      expect(git("log", "--oneline")).toContain("change");
      expect(editor.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["c2"]);
      await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "stage it again" }] });
      expect(editor.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["c2", "c3"]);
    } finally {
      await editor.close();
    }
  });
});
