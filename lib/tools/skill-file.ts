// A skill as the skill tool sees it, and how its SKILL.md is read. Lives in the tools layer so
// the skill tool does not reach up into lib/agent; discovery (lib/coding/skills.ts) builds on it.
import { readFileSync } from "node:fs";

export type SkillSource = "project" | "user" | "extension" | "builtin";

export interface Skill {
  name: string;
  description: string;
  source: SkillSource;
  /** The SKILL.md file; absent for built-in skills. */
  file?: string;
  /** The skill's folder, against which its relative references resolve; absent for built-in skills. */
  dir?: string;
  /** For extension skills: the folder of the manifest that listed it. */
  extensionDir?: string;
  /** Built-in skills carry their body; file skills are read when loaded. */
  body?: string;
}

/**
 * Splits a `---` fenced frontmatter block from the body. Understands the simple YAML subset
 * skills use: `key: value` lines, quoted values, indented continuation lines, `|`/`>` block
 * scalars and `#` comments. Text without a closed frontmatter block is all body.
 */
export function parseFrontmatter(text: string): { fields: Record<string, string>; body: string } {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const lines = normalized.split("\n");
  if (lines[0]?.trimEnd() !== "---") return { fields: {}, body: normalized };
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end === -1) return { fields: {}, body: normalized };

  const fields: Record<string, string> = {};
  let key: string | undefined;
  let block: "|" | ">" | undefined;
  let parts: string[] = [];
  const finish = () => {
    if (key === undefined) return;
    fields[key] = block === "|" ? parts.join("\n").trim() : parts.map((p) => p.trim()).filter(Boolean).join(" ");
    key = undefined;
  };
  for (const line of lines.slice(1, end)) {
    const entry = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*)|\s*)$/.exec(line);
    if (entry) {
      finish();
      key = entry[1]!;
      const value = (entry[2] ?? "").trim();
      block = /^[|>][+-]?$/.test(value) ? (value[0] as "|" | ">") : undefined;
      parts = block || value === "" ? [] : [scalar(value)];
    } else if (key !== undefined && (/^\s/.test(line) || line === "")) {
      parts.push(block === "|" ? line.replace(/^\s{1,2}/, "") : line);
    } else if (/^\s*(#|$)/.test(line)) {
      continue;
    }
  }
  finish();
  const body = lines.slice(end + 1).join("\n").replace(/^\n+/, "");
  return { fields, body };
}

function scalar(value: string): string {
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) return value.slice(1, -1).replace(/''/g, "'");
  return value.replace(/\s+#.*$/, ""); // YAML: " #" starts a comment in a plain value
}

/** The skill's instructions: the SKILL.md body without frontmatter. Throws when the file cannot be read. */
export function loadSkillBody(skill: Skill): string {
  if (skill.body !== undefined) return skill.body;
  if (!skill.file) throw new Error(`skill "${skill.name}" has neither a body nor a file`);
  return parseFrontmatter(readFileSync(skill.file, "utf8")).body;
}

