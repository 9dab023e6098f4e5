// Output styles, in Claude Code's format: a Markdown file whose frontmatter gives `name` and
// `description` and whose body is added to the system prompt while the user has picked it.
// They come from `$ZOT_HOME/output-styles`, Claude Code's `~/.claude/output-styles` and the
// plugins a run uses (`output-styles/*.md`); the first of a name wins, in that order. A plugin's
// style is also known as `plugin:name`. zot keeps its own instructions under every style
// (Claude Code's `keep-coding-instructions: false` drops them; zot reads it and keeps them).
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontmatter } from "../tools/skill-file.ts";

export interface OutputStyle {
  name: string;
  description: string;
  /** The text added to the system prompt. */
  text: string;
  /** Where it comes from: `user`, `claude` (~/.claude) or the plugin's name. */
  from: string;
  file: string;
  /** Other names it answers to (a plugin's `plugin:name`). */
  aliases: string[];
}

export interface OutputStyleFolder {
  dir: string;
  /** `user`, `claude`, or the plugin's name (its styles are also `plugin:name`). */
  from: string;
  plugin?: boolean;
}

/** The styles of `folders`, in order; a later one of a taken name is skipped, a broken file is a warning. */
export function discoverOutputStyles(folders: readonly OutputStyleFolder[], warn: (message: string) => void = () => {}): OutputStyle[] {
  const styles: OutputStyle[] = [];
  const taken = new Set<string>();
  for (const folder of folders) {
    let files: string[];
    try {
      files = readdirSync(folder.dir).filter((f) => f.endsWith(".md")).sort();
    } catch {
      continue;
    }
    for (const file of files) {
      const path = join(folder.dir, file);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (err) {
        warn(`output style ${path}: ${(err as Error).message}`);
        continue;
      }
      const { fields, body } = parseFrontmatter(text);
      const name = (fields.name ?? "").trim() || basename(file, ".md");
      if (!body.trim()) {
        warn(`output style ${path}: has no text to add to the system prompt`);
        continue;
      }
      const names = (folder.plugin ? [name, `${folder.from}:${name}`] : [name]).filter((n) => !taken.has(n.toLowerCase()));
      if (names.length === 0) continue;
      for (const n of names) taken.add(n.toLowerCase());
      styles.push({ name: names[0]!, aliases: names.slice(1), description: fields.description ?? "", text: body.trim(), from: folder.from, file: path });
    }
  }
  return styles;
}

/** The style called `name` (any case), or undefined. */
export function findOutputStyle(styles: readonly OutputStyle[], name: string): OutputStyle | undefined {
  const wanted = name.trim().toLowerCase();
  return styles.find((s) => [s.name, ...s.aliases].some((n) => n.toLowerCase() === wanted));
}

/** The system-prompt section of a picked style. */
export const outputStyleSection = (style: OutputStyle): string => `# Output style: ${style.name}\n\n${style.text}`;
