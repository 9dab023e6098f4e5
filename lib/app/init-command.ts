// `/init`: the model looks at the project and writes (or improves) its AGENTS.md, the file zot
// and other agents read as project instructions. The work is an ordinary prompt, so the user sees
// each tool call and confirms the write as any other.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Instruction files the model should fold in when they exist. */
const KNOWN_INSTRUCTIONS = ["AGENTS.md", "CLAUDE.md", ".cursorrules", ".github/copilot-instructions.md", "README.md", "CONTRIBUTING.md"];

export function initPrompt(cwd: string, extra: string): string {
  const found = KNOWN_INSTRUCTIONS.filter((file) => existsSync(join(cwd, file)));
  const existing = existsSync(join(cwd, "AGENTS.md"));
  return [
    existing
      ? "Improve this project's AGENTS.md: read it, check it against the code, and correct or complete it."
      : "Write an AGENTS.md at the root of this project: the instructions a coding agent needs before it changes anything here.",
    "",
    "Find out, by reading files and listing folders (do not guess):",
    "- how to build, lint and test, including how to run a single test;",
    "- the layout: the main folders and what lives where, the entry points;",
    "- the conventions the code follows (naming, formatting, error handling, tests) that are not obvious from one file;",
    "- anything surprising a newcomer would get wrong.",
    "",
    "Keep it short (under about 150 lines), concrete and specific to this project: commands in code blocks, no generic advice, nothing you could not verify.",
    ...(found.length ? [`Fold in what is still true from: ${found.join(", ")}.`] : []),
    ...(extra.trim() ? [`The user adds: ${extra.trim()}`] : []),
    "Write the file with the write tool (or edit it), then say in two or three lines what it covers.",
  ].join("\n");
}
