import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkills } from "../../lib/coding/skills.ts";
import { createSkillTool } from "../../lib/tools/skill.ts";
import { context, tempDir, textOf } from "./helpers.ts";

function withProjectSkill() {
  const cwd = tempDir();
  const dir = join(cwd, ".zot", "skills", "deploy");
  mkdirSync(join(dir, "scripts"), { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), "---\nname: deploy\ndescription: Deploy the app\n---\n\nRun scripts/deploy.sh, then check.\n");
  const skills = discoverSkills({ cwd, zotHome: tempDir() });
  return { cwd, dir, skills };
}

describe("skill tool", () => {
  it("returns the body without frontmatter and names the skill's folder", async () => {
    const { cwd, dir, skills } = withProjectSkill();
    const out = await createSkillTool({ skills }).execute({ name: "deploy" }, context(cwd));
    expect(out.isError).toBeFalsy();
    const text = textOf(out);
    expect(text).toContain(`folder: ${dir}`);
    expect(text).toContain("Relative paths in these instructions resolve against that folder.");
    expect(text.endsWith("Run scripts/deploy.sh, then check.")).toBe(true);
    expect(text).not.toContain("description: Deploy the app");
    expect(out.details).toMatchObject({ skill: "deploy", source: "project", dir });
  });

  it("serves the built-in skill", async () => {
    const { cwd, skills } = withProjectSkill();
    const out = await createSkillTool({ skills }).execute({ name: "write-zot-extension" }, context(cwd));
    expect(textOf(out)).toContain("built into zot");
    expect(textOf(out)).toContain("# Writing a zot extension");
  });

  it("matches names case-insensitively when there is no exact match", async () => {
    const { cwd, skills } = withProjectSkill();
    expect((await createSkillTool({ skills }).execute({ name: "Deploy" }, context(cwd))).isError).toBeFalsy();
  });

  it("an unknown name lists the available skills", async () => {
    const { cwd, skills } = withProjectSkill();
    const out = await createSkillTool({ skills }).execute({ name: "nope" }, context(cwd));
    expect(out).toMatchObject({ isError: true, status: "failed" });
    expect(textOf(out)).toBe('skill: no skill named "nope". Available skills: deploy, write-zot-extension.');
  });

  it("a skill file removed after discovery is reported, not thrown", async () => {
    const { cwd, dir, skills } = withProjectSkill();
    rmSync(dir, { recursive: true });
    const out = await createSkillTool({ skills }).execute({ name: "deploy" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain('cannot read skill "deploy"');
  });

  it("reads the current list through a getter (after a reload)", async () => {
    const { cwd, skills } = withProjectSkill();
    let current = skills.filter((s) => s.name !== "deploy");
    const tool = createSkillTool({ skills: () => current });
    expect((await tool.execute({ name: "deploy" }, context(cwd))).isError).toBe(true);
    current = skills;
    expect((await tool.execute({ name: "deploy" }, context(cwd))).isError).toBeFalsy();
  });

  it("requires a name", async () => {
    const { cwd, skills } = withProjectSkill();
    expect(textOf(await createSkillTool({ skills }).execute({}, context(cwd)))).toContain("`name` must be a string");
  });
});
