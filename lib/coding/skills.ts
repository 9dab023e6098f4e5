// Skill discovery. A skill is a folder holding a SKILL.md whose frontmatter gives its `name`
// and `description`; the body is loaded on demand through the `skill` tool.
//
// Sources and precedence (highest first), when two skills share a name:
//   1. project    <cwd>/.zot/skills      — the repository knows best, once trusted: each file is
//                                           pinned by `zot ext trust --project`, since a cloned
//                                           repository could otherwise replace a skill's text
//   2. user       $ZOT_HOME/skills
//   3. extension  manifests' `skills` entries, in the order the extensions are given
//   4. built-in   skills compiled into zot (write-zot-extension)
// Within one source the first found wins (folders are scanned in name order). Each shadowed or
// malformed skill is reported through `onWarning` and otherwise skipped; discovery never throws.
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { projectSkillsDir, zotPaths, pathsUnder } from "../paths.ts";
import { parseFrontmatter, type Skill, type SkillSource } from "../tools/skill-file.ts";
import { BUILTIN_SKILLS } from "./builtin-skills.ts";
import { sha256Hex } from "../lazy-node.ts";

export { loadSkillBody, parseFrontmatter, type Skill, type SkillSource } from "../tools/skill-file.ts";

/** One extension's manifest folder and its `skills` entries (folders or SKILL.md paths, relative to `dir`). */
export interface ExtensionSkillsInput {
  dir: string;
  skills: string[];
}

export interface DiscoverSkillsOptions {
  cwd: string;
  /** $ZOT_HOME; user skills live in `<zotHome>/skills`. Defaults to the process's $ZOT_HOME. */
  zotHome?: string;
  /**
   * Which sources to include (each defaults to true). `project` may instead give the trust the
   * user recorded: only files whose text matches their pin are offered (`pinned` absent: the
   * project is not trusted).
   */
  project?: boolean | { pinned: Record<string, string> | undefined };
  user?: boolean;
  builtin?: boolean;
  extensions?: ExtensionSkillsInput[];
  onWarning?: (message: string) => void;
}

export const SKILL_FILE = "SKILL.md";
const DESCRIPTION_MAX_CHARS = 1024;

export function discoverSkills(options: DiscoverSkillsOptions): Skill[] {
  const warn = options.onWarning ?? (() => {});
  const found = new Map<string, Skill>();
  const add = (skill: Skill) => {
    const winner = found.get(skill.name);
    if (winner) {
      warn(`skill "${skill.name}" at ${where(skill)} is shadowed by the ${winner.source} skill at ${where(winner)}`);
      return;
    }
    found.set(skill.name, skill);
  };

  if (options.project !== false) {
    const pins = typeof options.project === "object" ? options.project : undefined;
    for (const file of findSkillFiles(projectSkillsDir(options.cwd))) {
      const why = pins && projectSkillDistrust(relative(projectSkillsDir(options.cwd), file), file, pins.pinned);
      if (why) warn(`project skill ${file} is not offered: ${why}; review it and run \`zot ext trust --project\` (or pass --trust-project for this run)`);
      else addFile(file, "project", add, warn);
    }
  }
  if (options.user !== false) {
    const home = options.zotHome ? pathsUnder(options.zotHome) : zotPaths();
    for (const file of findSkillFiles(home.skills)) addFile(file, "user", add, warn);
  }
  for (const ext of options.extensions ?? []) {
    for (const entry of ext.skills) {
      const target = resolve(ext.dir, entry);
      let isDir: boolean;
      try {
        isDir = statSync(target).isDirectory();
      } catch {
        warn(`extension at ${ext.dir} lists skills entry "${entry}", but ${target} does not exist`);
        continue;
      }
      const files = isDir ? findSkillFiles(target) : [target];
      if (isDir && files.length === 0) warn(`extension at ${ext.dir}: skills entry "${entry}" contains no ${SKILL_FILE}`);
      for (const file of files) addFile(file, "extension", add, warn, ext.dir);
    }
  }
  if (options.builtin !== false) {
    for (const b of BUILTIN_SKILLS) add({ name: b.name, description: b.description, source: "builtin", body: b.body });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** sha256 of a skill file's text, as `zot ext trust --project` pins it. */
export function skillFileHash(text: string): string {
  return sha256Hex(text);
}

export interface ProjectSkillFile {
  /** Below <cwd>/.zot/skills, as the pin records it. */
  path: string;
  sha256: string;
  description: string;
}

/** The project's skill files as `zot ext trust --project` shows and pins them. */
export function projectSkillFiles(cwd: string): ProjectSkillFile[] {
  const root = projectSkillsDir(cwd);
  return findSkillFiles(root).flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return [];
    }
    const { fields, body } = parseFrontmatter(text);
    return [{ path: relative(root, file), sha256: skillFileHash(text), description: oneLine(fields.description ?? "") || firstLine(body) }];
  });
}

function projectSkillDistrust(path: string, file: string, pinned: Record<string, string> | undefined): string | undefined {
  if (!pinned) return "this project has not been trusted";
  const hash = pinned[path];
  if (hash === undefined) return "it was added after you trusted this project";
  try {
    return skillFileHash(readFileSync(file, "utf8")) === hash ? undefined : "it changed since you trusted this project";
  } catch (err) {
    return `it cannot be read (${(err as Error).message})`;
  }
}

function where(skill: Skill): string {
  return skill.file ?? "(built in)";
}

function addFile(file: string, source: SkillSource, add: (s: Skill) => void, warn: (m: string) => void, extensionDir?: string): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    warn(`cannot read skill ${file}: ${(err as Error).message}`);
    return;
  }
  const { fields, body } = parseFrontmatter(text);
  const dir = dirname(file);
  const name = oneLine(fields.name ?? "") || basename(dir);
  const description = oneLine(fields.description ?? "") || firstLine(body);
  if (!description) {
    warn(`skill ${file} has no description (add "description: …" to its frontmatter); skipped`);
    return;
  }
  const skill: Skill = { name, description: clip(description, DESCRIPTION_MAX_CHARS), source, file, dir };
  if (extensionDir) skill.extensionDir = extensionDir;
  add(skill);
}

/**
 * Every SKILL.md below `root`, in name order. A folder holding a SKILL.md is a skill: its
 * subfolders are the skill's own material and are not searched further. Hidden folders and
 * node_modules are skipped; symlinked folders are followed once.
 */
export function findSkillFiles(root: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync(dir);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a missing source is simply empty
    }
    if (seen.has(real)) return;
    seen.add(real);
    if (entries.some((e) => e.name === SKILL_FILE && isFileEntry(dir, e))) {
      out.push(join(dir, SKILL_FILE));
      return;
    }
    const subdirs = entries
      .filter((e) => !e.name.startsWith(".") && e.name !== "node_modules" && isDirEntry(dir, e))
      .map((e) => e.name)
      .sort();
    for (const name of subdirs) walk(join(dir, name));
  };
  walk(root);
  return out;
}

function isDirEntry(dir: string, e: Dirent): boolean {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, e.name)).isDirectory();
  } catch {
    return false;
  }
}

function isFileEntry(dir: string, e: Dirent): boolean {
  if (e.isFile()) return true;
  if (!e.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, e.name)).isFile();
  } catch {
    return false;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function firstLine(body: string): string {
  const line = body.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find(Boolean);
  return line ? clip(line, 200) : "";
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The system-prompt block listing available skills; empty when there are none. */
export function skillsManifest(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const items = skills.map((s) => `- ${s.name}: ${s.description}`);
  return [
    "Skills hold instructions for specific tasks. When a task matches a skill's description, call",
    "the skill tool with its name to load the instructions before you start.",
    "<available_skills>",
    ...items,
    "</available_skills>",
  ].join("\n");
}
