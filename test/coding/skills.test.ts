import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkills, loadSkillBody, parseFrontmatter, skillsManifest, type Skill } from "../../lib/coding/skills.ts";
import { BUILTIN_SKILLS } from "../../lib/coding/builtin-skills.ts";
import { checkManifest } from "../../lib/extensions/catalog/manifest.ts";
import { tempDir } from "../tools/helpers.ts";

function skill(dir: string, name: string | undefined, description: string, body = "Do the thing.\n"): string {
  mkdirSync(dir, { recursive: true });
  const front = [name !== undefined ? `name: ${name}` : "", `description: ${description}`].filter(Boolean).join("\n");
  const file = join(dir, "SKILL.md");
  writeFileSync(file, `---\n${front}\n---\n${body}`);
  return file;
}

function layout() {
  const cwd = tempDir();
  const home = tempDir();
  return { cwd, home, project: join(cwd, ".zot", "skills"), user: join(home, "skills") };
}

const byName = (skills: Skill[]) => Object.fromEntries(skills.map((s) => [s.name, s]));

describe("skills: frontmatter", () => {
  it("reads key: value pairs, quotes, comments, continuation lines and block scalars", () => {
    const { fields, body } = parseFrontmatter([
      "\uFEFF---",
      "name: deploy",
      "# a comment",
      'description: "Ship it: carefully"',
      "quoted: 'it''s'",
      "plain: value # trailing comment",
      "folded: >",
      "  first line",
      "  second line",
      "literal: |",
      "  keep",
      "  lines",
      "multi: starts here",
      "  and continues",
      "---",
      "",
      "# Body",
      "text",
    ].join("\r\n"));
    expect(fields).toEqual({
      name: "deploy",
      description: "Ship it: carefully",
      quoted: "it's",
      plain: "value",
      folded: "first line second line",
      literal: "keep\nlines",
      multi: "starts here and continues",
    });
    expect(body).toBe("# Body\ntext");
  });

  it("text without a closed frontmatter block is all body", () => {
    expect(parseFrontmatter("just text\n")).toEqual({ fields: {}, body: "just text\n" });
    expect(parseFrontmatter("---\nname: x\nno end").fields).toEqual({});
  });
});

describe("skills: discovery", () => {
  it("finds SKILL.md recursively in the project and user folders, with folder paths", () => {
    const { cwd, home, project, user } = layout();
    skill(join(project, "deploy"), "deploy", "Deploy the app");
    skill(join(user, "group", "nested", "lint"), "lint", "Run the linters");
    const skills = discoverSkills({ cwd, zotHome: home, builtin: false });
    expect(skills.map((s) => [s.name, s.source])).toEqual([["deploy", "project"], ["lint", "user"]]);
    expect(byName(skills).lint).toMatchObject({ dir: join(user, "group", "nested", "lint"), file: join(user, "group", "nested", "lint", "SKILL.md") });
  });

  it("a folder holding a SKILL.md is one skill; its subfolders are not searched, nor hidden ones", () => {
    const { cwd, home, project } = layout();
    skill(join(project, "outer"), "outer", "Outer skill");
    skill(join(project, "outer", "examples", "inner"), "inner", "Inner material");
    skill(join(project, ".hidden", "h"), "h", "Hidden");
    skill(join(project, "node_modules", "m"), "m", "Dependency");
    expect(discoverSkills({ cwd, zotHome: home, builtin: false }).map((s) => s.name)).toEqual(["outer"]);
  });

  it("the name defaults to the folder name and the description to the first body line", () => {
    const { cwd, home, project } = layout();
    mkdirSync(join(project, "bare"), { recursive: true });
    writeFileSync(join(project, "bare", "SKILL.md"), "# Bare skill\n\nMore text.\n");
    expect(discoverSkills({ cwd, zotHome: home, builtin: false })).toMatchObject([{ name: "bare", description: "Bare skill" }]);
  });

  it("skips a skill with no description at all, with a warning", () => {
    const { cwd, home, project } = layout();
    mkdirSync(join(project, "empty"), { recursive: true });
    writeFileSync(join(project, "empty", "SKILL.md"), "---\nname: empty\n---\n");
    const warnings: string[] = [];
    expect(discoverSkills({ cwd, zotHome: home, builtin: false, onWarning: (m) => warnings.push(m) })).toEqual([]);
    expect(warnings[0]).toContain("has no description");
  });

  it("follows symlinked folders once, without looping", () => {
    const { cwd, home, project, user } = layout();
    skill(join(user, "real", "s"), "s", "Linked skill");
    mkdirSync(project, { recursive: true });
    symlinkSync(join(user, "real"), join(project, "linked"));
    symlinkSync(project, join(project, "loop"));
    expect(discoverSkills({ cwd, zotHome: home, builtin: false, user: false }).map((s) => s.name)).toEqual(["s"]);
  });

  it("reads extension skills from folders and direct SKILL.md paths relative to the manifest", () => {
    const { cwd, home } = layout();
    const ext = tempDir();
    skill(join(ext, "skills", "a"), "ext-a", "From a folder");
    const direct = skill(join(ext, "extra", "b"), "ext-b", "From a direct path");
    const warnings: string[] = [];
    const skills = discoverSkills({
      cwd, zotHome: home, builtin: false,
      extensions: [{ dir: ext, skills: ["skills", "extra/b/SKILL.md", "missing"] }],
      onWarning: (m) => warnings.push(m),
    });
    expect(skills.map((s) => [s.name, s.source])).toEqual([["ext-a", "extension"], ["ext-b", "extension"]]);
    expect(byName(skills)["ext-b"]).toMatchObject({ file: direct, dir: dirname(direct), extensionDir: ext });
    expect(warnings.join("\n")).toContain('skills entry "missing"');
  });
});

describe("skills: precedence (project over user over extension over built-in)", () => {
  it("a project skill shadows a user skill of the same name, which shadows an extension's", () => {
    const { cwd, home, project, user } = layout();
    const ext = tempDir();
    skill(join(project, "x"), "shared", "project version");
    skill(join(user, "x"), "shared", "user version");
    skill(join(user, "y"), "user-wins", "user version");
    skill(join(ext, "x"), "shared", "extension version");
    skill(join(ext, "y"), "user-wins", "extension version");
    const warnings: string[] = [];
    const skills = byName(discoverSkills({ cwd, zotHome: home, extensions: [{ dir: ext, skills: ["."] }], onWarning: (m) => warnings.push(m) }));
    expect(skills.shared).toMatchObject({ source: "project", description: "project version" });
    expect(skills["user-wins"]).toMatchObject({ source: "user", description: "user version" });
    expect(warnings.filter((w) => w.includes("is shadowed by"))).toHaveLength(3);
  });

  it("an earlier extension wins over a later one", () => {
    const { cwd, home } = layout();
    const [e1, e2] = [tempDir(), tempDir()];
    skill(join(e1, "s"), "dup", "first extension");
    skill(join(e2, "s"), "dup", "second extension");
    const skills = discoverSkills({ cwd, zotHome: home, builtin: false, extensions: [{ dir: e1, skills: ["s"] }, { dir: e2, skills: ["s"] }] });
    expect(skills).toMatchObject([{ name: "dup", description: "first extension", extensionDir: e1 }]);
  });

  it("any file skill shadows the built-in of the same name", () => {
    const { cwd, home } = layout();
    const ext = tempDir();
    skill(join(ext, "s"), "write-zot-extension", "custom guide");
    const skills = byName(discoverSkills({ cwd, zotHome: home, extensions: [{ dir: ext, skills: ["s"] }] }));
    expect(skills["write-zot-extension"]).toMatchObject({ source: "extension", description: "custom guide" });
  });

  it("sources can be switched off one by one", () => {
    const { cwd, home, project, user } = layout();
    skill(join(project, "p"), "p", "project");
    skill(join(user, "u"), "u", "user");
    expect(discoverSkills({ cwd, zotHome: home, user: false, builtin: false }).map((s) => s.name)).toEqual(["p"]);
    expect(discoverSkills({ cwd, zotHome: home, project: false, builtin: false }).map((s) => s.name)).toEqual(["u"]);
  });
});

describe("skills: the built-in write-zot-extension skill", () => {
  it("is discovered with no files anywhere", () => {
    const { cwd, home } = layout();
    const skills = discoverSkills({ cwd, zotHome: home });
    expect(skills).toHaveLength(1);
    expect(skills[0]).toMatchObject({ name: "write-zot-extension", source: "builtin" });
    expect(skills[0]!.file).toBeUndefined();
  });

  it("covers the manifest, handshake, commands, tools, events, interception, panels, --ext and doctor", () => {
    const body = loadSkillBody(discoverSkills({ cwd: tempDir(), zotHome: tempDir() })[0]!);
    for (const term of [
      "extension.json", '"type":"hello"', "hello_ack", '{"type":"ready"}', "register_command", "command_invoked",
      "command_response", "register_tool", "tool_call", "tool_result", "subscribe", "event_intercept",
      "event_intercept_response", "modified_args", "open_panel", "panel_key", "panel_render", "panel_close",
      "shutdown_ack", "zot --ext", "zot ext doctor",
    ]) expect(body).toContain(term);
  });

  it("documents the permissions shape with a block the manifest validator accepts", () => {
    const body = BUILTIN_SKILLS[0]!.body;
    const block = [...body.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('"permissions"'))!;
    const declared = JSON.parse(block) as Record<string, unknown>;
    const loaded = checkManifest("/ext/x", { name: "x", exec: "./x", ...declared }, false);
    expect(loaded.manifest.permissions).toMatchObject({ tools: ["read"], ui: ["notes"], network: "none" });
    expect(loaded.manifest.on_failure).toEqual({ tool_call: "block" });
    for (const term of ["full access", "not permitted", "on_failure", "refused: guard <name> did not answer", "zot ext doctor"]) {
      expect(body).toContain(term);
    }
  });

  it("every JSON frame it shows is valid JSON", () => {
    const body = BUILTIN_SKILLS[0]!.body;
    const frames = [...body.matchAll(/`(\{"type":[^`]*\})`/g)].map((m) => m[1]!).filter((f) => !f.includes("…"));
    expect(frames.length).toBeGreaterThan(10);
    for (const frame of frames) expect(() => JSON.parse(frame), frame).not.toThrow();
  });

  it("its Python example is a working extension (hello, ready, a command, shutdown)", () => {
    const code = /```python\n([\s\S]*?)```/.exec(BUILTIN_SKILLS[0]!.body)![1]!;
    const dir = tempDir();
    writeFileSync(join(dir, "ext.py"), code);
    const input = [
      { type: "hello_ack", protocol_version: 1, cwd: dir },
      { type: "command_invoked", id: "7", name: "hellopy", args: "" },
      { type: "shutdown" },
    ].map((f) => JSON.stringify(f)).join("\n") + "\n";
    const frames = execFileSync("python3", [join(dir, "ext.py")], { input, encoding: "utf8", timeout: 10_000 })
      .trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(frames.map((f) => f.type)).toEqual(["hello", "register_command", "ready", "command_response", "shutdown_ack"]);
    expect(frames[3]).toMatchObject({ id: "7", action: "display" });
  });
});

describe("skills: the system-prompt manifest", () => {
  it("lists each skill with its description and points to the skill tool", () => {
    const text = skillsManifest([
      { name: "a", description: "Does A", source: "project" },
      { name: "b", description: "Does B", source: "builtin", body: "" },
    ]);
    expect(text).toContain("- a: Does A\n- b: Does B");
    expect(text).toContain("skill tool");
  });

  it("is empty when there are no skills", () => {
    expect(skillsManifest([])).toBe("");
  });
});
