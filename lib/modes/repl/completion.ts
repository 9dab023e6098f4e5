// Tab completion of slash commands (built-ins and extension commands, the latter listed under
// their own heading when several candidates remain) and of `@path` mentions.
import { completeMention } from "./path-completion.ts";

export interface CompletableCommand {
  name: string;
  /** "builtin", or the extension that registered the command. */
  source: string;
}

export interface Completion {
  /** The new input line (unchanged when nothing could be added). */
  line: string;
  /** Lines describing the remaining candidates when the completion is ambiguous. */
  candidates: string[];
}

function commonPrefix(words: string[]): string {
  let prefix = words[0] ?? "";
  for (const w of words) {
    while (!w.toLowerCase().startsWith(prefix.toLowerCase())) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/** Completes `line` when it is a command name being typed (`/na` with no space yet). */
export function completeSlash(line: string, commands: CompletableCommand[]): Completion {
  const match = /^\/(\S*)$/.exec(line);
  if (!match) return { line, candidates: [] };
  const typed = match[1]!.toLowerCase();
  const hits = commands.filter((c) => c.name.toLowerCase().startsWith(typed));
  if (hits.length === 0) return { line, candidates: [] };
  if (hits.length === 1) return { line: `/${hits[0]!.name} `, candidates: [] };
  const prefix = commonPrefix(hits.map((h) => h.name));
  const builtin = hits.filter((h) => h.source === "builtin").map((h) => `/${h.name}`);
  const ext = hits.filter((h) => h.source !== "builtin").map((h) => `/${h.name}`);
  const candidates = [
    ...(builtin.length ? [`commands: ${builtin.join("  ")}`] : []),
    ...(ext.length ? [`extension commands: ${ext.join("  ")}`] : []),
  ];
  return { line: prefix.length > typed.length ? `/${prefix}` : line, candidates };
}

/** Tab on the input line: a command name being typed, else the `@path` before the cursor. */
export function completeInput(text: string, cursor: number, commands: CompletableCommand[], cwd: string):
  Completion & { cursor: number } {
  const slash = completeSlash(text, commands);
  if (slash.line !== text || slash.candidates.length > 0) return { ...slash, cursor: slash.line.length };
  const mention = completeMention(text.slice(0, cursor), cwd);
  if (!mention) return { line: text, candidates: [], cursor };
  return { line: mention.before + text.slice(cursor), candidates: mention.candidates, cursor: mention.before.length };
}
