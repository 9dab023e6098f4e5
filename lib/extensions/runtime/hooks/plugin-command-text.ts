// What a plugin's Markdown command sends to the model: its body with `$ARGUMENTS`, `$1`… and
// `${CLAUDE_PLUGIN_ROOT}` filled in.
import { readFile } from "node:fs/promises";
import { parseFrontmatter } from "../../../tools/skill-file.ts";

export async function expandPluginCommand(file: string, args: string, where: { root: string; cwd: string }): Promise<string> {
  const { body } = parseFrontmatter(await readFile(file, "utf8"));
  const words = args.trim() === "" ? [] : args.trim().split(/\s+/);
  return body
    .replaceAll("${CLAUDE_PLUGIN_ROOT}", where.root)
    .replaceAll("$ARGUMENTS", args.trim())
    .replace(/\$(\d)/g, (_, n: string) => words[Number(n) - 1] ?? "")
    .trim();
}
