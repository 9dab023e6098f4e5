// A plugin's `commands/*.md` as slash commands: `/<plugin>:<name>` (a subfolder adds
// `<folder>:`), and the plain `/<name>` too. Running one expands its body into the prompt.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontmatter } from "../../../tools/skill-file.ts";

export interface PluginCommand {
  /** The namespaced name (`plugin:command`). */
  name: string;
  /** The name without the plugin's prefix. */
  plain: string;
  description: string;
  file: string;
}

/** The commands in `dirs` (subfolders become part of the name), in name order. */
export function pluginCommands(plugin: string, dirs: readonly string[]): PluginCommand[] {
  const found: PluginCommand[] = [];
  const walk = (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const entry of names) {
      const path = join(dir, entry);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(path, `${prefix}${entry}:`);
      else if (entry.endsWith(".md")) {
        const plain = `${prefix}${basename(entry, ".md")}`;
        let description = "";
        try {
          const { fields, body } = parseFrontmatter(readFileSync(path, "utf8"));
          description = fields.description ?? body.trim().split("\n")[0]?.replace(/^#+\s*/, "") ?? "";
        } catch {
          // listed anyway: running it will say what is wrong
        }
        found.push({ name: `${plugin}:${plain}`, plain, description: `${description} (${plugin})`.trim(), file: path });
      }
    }
  };
  for (const dir of dirs) walk(dir, "");
  return found;
}
