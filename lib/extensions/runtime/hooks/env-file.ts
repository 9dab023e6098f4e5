// CLAUDE_ENV_FILE: what SessionStart hooks export there reaches every later bash command, as in
// Claude Code: the command sources the file first.
import { readFileSync } from "node:fs";

/** The bash call's arguments with `file` sourced first; undefined when unchanged (another tool, no file, nothing exported). */
export function withEnvFile(file: string | undefined, toolName: string, args: Record<string, unknown>): Record<string, unknown> | undefined {
  if (toolName !== "bash" || !file || typeof args.command !== "string") return undefined;
  let exported = "";
  try {
    exported = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  if (exported.trim() === "") return undefined;
  return { ...args, command: `. '${file.replaceAll("'", "'\\''")}'\n${args.command}` };
}
