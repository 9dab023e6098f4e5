// Context files (AGENTS.md / CLAUDE.md): discovery over real temp folders, and what reaches the
// model server's `system` through a real AgentSession and through the real zot process.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contextFilesSection, findContextFiles } from "../../lib/coding/context-files.ts";
import { NO_HOOKS, type AgentHooks } from "../../lib/agent/contracts/hooks.ts";
import { parseRootArgs } from "../../lib/cli/root-args.ts";
import { makeWorld, type World } from "../e2e/support.ts";
import { startHarness, systemSent, type Harness } from "../agent/harness.ts";

const cleanup: string[] = [];
let h: Harness | undefined;
let world: World | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await world?.close();
  world = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// A regular file that cannot be read even by root: Linux's /proc/self/mem fails at offset 0
// (EIO). Elsewhere, a mode-000 file does the same for other users.
const CAN_MAKE_UNREADABLE = process.platform === "linux" || process.getuid?.() !== 0;
function makeUnreadable(path: string): void {
  if (process.platform === "linux") symlinkSync("/proc/self/mem", path);
  else {
    writeFileSync(path, "secret");
    chmodSync(path, 0o000);
  }
}

/** A temp folder tree: `files` maps relative paths to contents ("" + trailing / makes a folder). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "zot-ctx-"));
  cleanup.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    if (rel.endsWith("/")) {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}

describe("findContextFiles", () => {
  it("orders the user-level file first, then the project from the git root down to the cwd", () => {
    const root = tree({
      "home/AGENTS.md": "user rules",
      "outside/AGENTS.md": "above the git root: never read",
      "outside/repo/.git/": "",
      "outside/repo/AGENTS.md": "repo rules",
      "outside/repo/pkg/AGENTS.md": "package rules",
      "outside/repo/pkg/src/": "",
    });
    const files = findContextFiles({ cwd: join(root, "outside/repo/pkg/src"), userDir: join(root, "home") });
    expect(files.map((f) => [f.path, f.content])).toEqual([
      [join(root, "home/AGENTS.md"), "user rules"],
      [join(root, "outside/repo/AGENTS.md"), "repo rules"],
      [join(root, "outside/repo/pkg/AGENTS.md"), "package rules"],
    ]);
  });

  it("stops at a .git file too (worktrees, submodules), and includes the git root's own file", () => {
    const root = tree({ "AGENTS.md": "parent", "sub/.git": "gitdir: ../x", "sub/AGENTS.md": "submodule" });
    expect(findContextFiles({ cwd: join(root, "sub") }).map((f) => f.content)).toEqual(["submodule"]);
  });

  it("without a git root walks every parent folder up to the filesystem root", () => {
    const root = tree({ "AGENTS.md": "top", "a/CLAUDE.md": "middle", "a/b/AGENTS.md": "cwd" });
    const mine = findContextFiles({ cwd: join(root, "a/b") }).filter((f) => f.path.startsWith(root));
    expect(mine.map((f) => f.content)).toEqual(["top", "middle", "cwd"]);
  });

  it("reads CLAUDE.md only where the folder has no AGENTS.md", () => {
    const root = tree({ ".git/": "", "CLAUDE.md": "claude at root", "pkg/AGENTS.md": "agents in pkg", "pkg/CLAUDE.md": "shadowed" });
    const files = findContextFiles({ cwd: join(root, "pkg") });
    expect(files.map((f) => f.content)).toEqual(["claude at root", "agents in pkg"]);
  });

  it("skips empty files, folders named AGENTS.md, and a user file that is also the project's", () => {
    const root = tree({ ".git/": "", "AGENTS.md": "root rules", "a/AGENTS.md": "  \n", "a/b/AGENTS.md/": "" });
    // $ZOT_HOME inside the project: its AGENTS.md is read once, as the user-level file.
    const files = findContextFiles({ cwd: join(root, "a/b"), userDir: root });
    expect(files.map((f) => f.path)).toEqual([join(root, "AGENTS.md")]);
  });

  it("caps each file with a truncation note and never splits a character", () => {
    const root = tree({ ".git/": "", "AGENTS.md": "é".repeat(10) });
    const [file] = findContextFiles({ cwd: root, maxBytes: 5 });
    expect(file).toMatchObject({ content: "éé", size: 20, truncated: true });
    const section = contextFilesSection([file!]);
    expect(section).toContain(`## ${join(root, "AGENTS.md")}\n\néé`);
    expect(section).toContain(`[truncated: only the first 4 of 20 bytes of ${join(root, "AGENTS.md")} are shown]`);
    expect(findContextFiles({ cwd: root })[0]).toMatchObject({ content: "é".repeat(10), truncated: false });
  });

  it.runIf(CAN_MAKE_UNREADABLE)("skips an unreadable file with a warning instead of throwing", () => {
    const root = tree({ ".git/": "", "pkg/AGENTS.md": "readable" });
    makeUnreadable(join(root, "AGENTS.md"));
    const warnings: string[] = [];
    const files = findContextFiles({ cwd: join(root, "pkg"), onWarning: (m) => warnings.push(m) });
    expect(files.map((f) => f.content)).toEqual(["readable"]);
    expect(warnings).toEqual([expect.stringContaining(`could not read context file ${join(root, "AGENTS.md")}: `)]);
  });

  it("the section is empty when there are no files", () => {
    expect(contextFilesSection([])).toBe("");
    const root = tree({ ".git/": "" });
    expect(findContextFiles({ cwd: root })).toEqual([]);
  });
});

describe("context files in the system prompt", () => {
  /** A harness whose project is a git root holding `AGENTS.md`, and a user-level AGENTS.md. */
  async function harnessWithFiles(options: Parameters<typeof startHarness>[1] = {}, turns = 1): Promise<Harness> {
    const harness = await startHarness(Array.from({ length: turns }, (_, i) => ({ text: `reply ${i}` })), options);
    mkdirSync(join(harness.cwd, ".git"));
    writeFileSync(join(harness.cwd, "AGENTS.md"), "PROJECT RULE: run the linter");
    writeFileSync(join(harness.home, "AGENTS.md"), "USER RULE: answer in English");
    return harness;
  }

  it("reaches the request's system after the prompt text and appends, before the skills manifest", async () => {
    const skills = [{ name: "deploy", description: "How to deploy", source: "project" as const, body: "steps" }];
    h = await harnessWithFiles({ skills });
    const session = h.newSession({ skills, prompt: { systemPrompt: "FLAG PROMPT", append: ["APPENDED"], contextFiles: { userDir: h.home } } });
    await session.prompt("hi");
    const system = systemSent(h.server.requests[0]!.body);
    // --system-prompt replaced only the built-in text: the context files are still there.
    expect(system.startsWith("FLAG PROMPT\n\nAPPENDED\n\n# Project context")).toBe(true);
    const order = ["USER RULE", "PROJECT RULE", "How to deploy"].map((text) => system.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).toContain(`## ${join(h.cwd, "AGENTS.md")}\n\nPROJECT RULE: run the linter`);
  });

  it("reads none without the contextFiles option", async () => {
    h = await harnessWithFiles({ prompt: { systemPrompt: "ONLY THIS" } });
    await h.session.prompt("hi");
    expect(systemSent(h.server.requests[0]!.body)).toBe("ONLY THIS");
  });

  it("is re-read when the prompt is rebuilt, not on every step", async () => {
    h = await harnessWithFiles({ prompt: { contextFiles: {} } }, 3);
    await h.session.prompt("one");
    writeFileSync(join(h.cwd, "AGENTS.md"), "PROJECT RULE: edited");
    await h.session.prompt("two");
    h.session.resetSystemPrompt();
    await h.session.prompt("three");
    const systems = h.server.requests.map((r) => systemSent(r.body));
    expect(systems[0]).toContain("run the linter");
    expect(systems[1]).toBe(systems[0]);
    expect(systems[2]).toContain("PROJECT RULE: edited");
    expect(systems[2]).not.toContain("run the linter");
  });

  it("a before_agent_start hook sees the context files and can remove them", async () => {
    const seen: string[] = [];
    const hooks: AgentHooks = {
      ...NO_HOOKS,
      beforeAgentStart: async (input) => {
        seen.push(input.systemPrompt);
        return input.systemPrompt.replace(/# Project context[\s\S]*/, "").trimEnd();
      },
    };
    h = await harnessWithFiles({ hooks, prompt: { systemPrompt: "BASE", contextFiles: {} } });
    await h.session.prompt("hi");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("PROJECT RULE: run the linter");
    expect(systemSent(h.server.requests[0]!.body)).toBe("BASE");
  });

  it.runIf(CAN_MAKE_UNREADABLE)("an unreadable file becomes a warning and the run goes on", async () => {
    const warnings: string[] = [];
    h = await harnessWithFiles({ prompt: { systemPrompt: "BASE", contextFiles: {} }, onWarning: (m) => warnings.push(m) });
    mkdirSync(join(h.cwd, "pkg"));
    makeUnreadable(join(h.cwd, "pkg", "AGENTS.md"));
    const session = h.newSession({ cwd: join(h.cwd, "pkg") });
    const result = await session.prompt("hi");
    expect(result.stop).toBe("end_turn");
    expect(systemSent(h.server.requests[0]!.body)).toContain("PROJECT RULE");
    expect(warnings).toEqual([expect.stringContaining(`could not read context file ${join(h.cwd, "pkg", "AGENTS.md")}`)]);
  });
});

describe("zot process and --no-context-files", () => {
  it("the flag parses", () => {
    expect(parseRootArgs(["--no-context-files", "hi"]).noContextFiles).toBe(true);
    expect(parseRootArgs(["hi"]).noContextFiles).toBe(false);
  });

  it("zot sends project and user context files; --no-context-files leaves them out", async () => {
    world = await makeWorld([{ text: "a" }, { text: "b" }]);
    mkdirSync(join(world.cwd, ".git"));
    writeFileSync(join(world.cwd, "CLAUDE.md"), "PROJECT CLAUDE RULE");
    writeFileSync(join(world.home, "AGENTS.md"), "USER AGENTS RULE");
    const on = await world.run(["-p", "--no-session", "--no-skill", "--system-prompt", "BASE", "hi"]);
    const off = await world.run(["-p", "--no-session", "--no-skill", "--system-prompt", "BASE", "--no-context-files", "hi"]);
    expect([on.code, off.code]).toEqual([0, 0]);
    const [withFiles, without] = world.server.requests.map((r) => systemSent(r.body));
    expect(withFiles).toMatch(/^BASE\n\n# Project context[\s\S]*USER AGENTS RULE[\s\S]*PROJECT CLAUDE RULE$/);
    expect(without).toBe("BASE");
  });
});
