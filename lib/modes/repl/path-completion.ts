// Tab completion of `@path` mentions: the word before the cursor that starts with `@` completes
// to the files and folders under the working directory (a folder gets a `/`, a file a space).
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Candidates shown when several remain, at most. */
const SHOWN_MAX = 24;

export interface PathCompletion {
  /** The text before the cursor, completed. */
  before: string;
  /** The remaining candidates when ambiguous. */
  candidates: string[];
}

/** Completes the `@path` being typed at the end of `before` (the line up to the cursor); undefined when there is none. */
export function completeMention(before: string, cwd: string): PathCompletion | undefined {
  const match = /(^|\s)@(\S*)$/.exec(before);
  if (!match) return undefined;
  const typed = match[2]!;
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const stem = typed.slice(slash + 1);
  const base = folder.startsWith("~/") ? join(homedir(), folder.slice(2)) : resolve(cwd, folder || ".");
  let entries: Array<{ name: string; dir: boolean }>;
  try {
    entries = readdirSync(base, { withFileTypes: true })
      .filter((e) => e.name.startsWith(stem) && (stem.startsWith(".") || !e.name.startsWith(".")) && e.name !== ".git")
      .map((e) => ({ name: e.name, dir: e.isDirectory() || (e.isSymbolicLink() && isDir(join(base, e.name))) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return undefined;
  }
  if (entries.length === 0) return undefined;
  const head = before.slice(0, before.length - typed.length);
  if (entries.length === 1) {
    const only = entries[0]!;
    return { before: `${head}${folder}${only.name}${only.dir ? "/" : " "}`, candidates: [] };
  }
  let prefix = entries[0]!.name;
  for (const e of entries) while (!e.name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const shown = entries.slice(0, SHOWN_MAX).map((e) => `${e.name}${e.dir ? "/" : ""}`);
  const more = entries.length > SHOWN_MAX ? [`(${entries.length - SHOWN_MAX} more)`] : [];
  return { before: `${head}${folder}${prefix}`, candidates: [`files: ${[...shown, ...more].join("  ")}`] };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
