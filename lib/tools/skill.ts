// The `skill` tool: loads a skill's instructions (its SKILL.md body, frontmatter stripped) and
// says which folder its relative references resolve against. Skills are curated by the user,
// the project and extensions, so jail does not apply to reading them.
import { loadSkillBody, type Skill } from "./skill-file.ts";
import { requireString } from "./args.ts";
import { guardExecute, ToolFailure } from "./failure.ts";
import type { Tool } from "./types.ts";

export interface SkillToolOptions {
  skills: Skill[] | (() => Skill[]);
}

export function createSkillTool(options: SkillToolOptions): Tool {
  const list = () => (typeof options.skills === "function" ? options.skills() : options.skills);
  return {
    name: "skill",
    source: { kind: "builtin" },
    description:
      "Load a skill: specialised instructions for a task, listed by name under available skills in " +
      "the system prompt. Call it before starting a task that matches a skill's description.",
    schema: {
      type: "object",
      properties: { name: { type: "string", description: "The skill's name, as listed." } },
      required: ["name"],
    },
    preview(args) {
      return String(args.name ?? "");
    },
    execute: guardExecute("skill", async (args) => {
      const name = requireString("skill", args, "name", "the name of a listed skill").trim();
      const skills = list();
      const skill = skills.find((s) => s.name === name) ?? skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!skill) {
        const available = skills.map((s) => s.name).join(", ") || "none";
        throw new ToolFailure(`skill: no skill named "${name}". Available skills: ${available}.`);
      }
      let body: string;
      try {
        body = loadSkillBody(skill);
      } catch (err) {
        throw new ToolFailure(`skill: cannot read skill "${skill.name}" from ${skill.file}: ${(err as Error).message}`);
      }
      const header = skill.dir
        ? `Skill "${skill.name}" (folder: ${skill.dir}). Relative paths in these instructions resolve against that folder.`
        : `Skill "${skill.name}" (built into zot).`;
      return {
        content: [{ type: "text", text: `${header}\n\n${body.trim()}` }],
        details: { skill: skill.name, source: skill.source, file: skill.file, dir: skill.dir },
      };
    }),
  };
}
