// `@path` mentions in a prompt, as Claude Code reads them (in what the user types and in a
// Markdown command's text): each `@path` that names an existing file attaches its text, each that
// names a folder attaches a listing. A mention stays in the prompt as typed; the attachments
// follow it. What is not a path (`user@host`, `@types/x` that does not exist) is left alone.
// Confined runs (`--jail`) attach nothing outside the working directory.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** Per file, the text attached at most; past it the rest is left out with a note. */
export const MENTION_FILE_MAX_BYTES = 100 * 1024;
/** Mentions attached from one prompt at most. */
export const MENTIONS_MAX = 10;
/** Entries of a folder's listing at most. */
const LISTING_MAX = 200;

export interface MentionOptions {
  cwd: string;
  /** Attach nothing outside `cwd`. */
  jail?: boolean;
}

export interface Attachment {
  /** The path as mentioned. */
  mention: string;
  path: string;
  kind: "file" | "folder";
  /** The text given to the model. */
  text: string;
}

const MENTION = /(^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;

/** The files and folders `text` mentions with `@path`, read for the model. */
export function attachMentions(text: string, options: MentionOptions): Attachment[] {
  const attached: Attachment[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    if (attached.length >= MENTIONS_MAX) break;
    const found = locate(match[2] ?? match[3]!, options);
    if (!found || seen.has(found.path)) continue;
    seen.add(found.path);
    const shown = relative(options.cwd, found.path) || ".";
    attached.push({ mention: found.mention, path: found.path, kind: found.kind,
      text: found.kind === "folder" ? folderText(found.path, shown) : fileText(found.path, shown) });
  }
  return attached;
}

/** The mentioned path that exists: as written, or without trailing punctuation (`see @a.ts.`). */
function locate(written: string, options: MentionOptions): { mention: string; path: string; kind: "file" | "folder" } | undefined {
  for (const mention of [written, written.replace(/[.,;:!?)\]}'`]+$/, "")]) {
    if (mention === "") continue;
    const expanded = mention === "~" || mention.startsWith("~/") ? join(homedir(), mention.slice(1)) : mention;
    const path = resolve(options.cwd, expanded);
    if (options.jail && !inside(options.cwd, path)) continue;
    try {
      const stat = statSync(path);
      if (stat.isFile() || stat.isDirectory()) return { mention, path, kind: stat.isDirectory() ? "folder" : "file" };
    } catch {
      // not a path: left as typed
    }
  }
  return undefined;
}

const inside = (root: string, path: string) => {
  const rel = relative(resolve(root), path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

function fileText(path: string, shown: string): string {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (err) {
    return `<file path="${shown}">\n(cannot be read: ${(err as Error).message})\n</file>`;
  }
  if (data.subarray(0, 8192).includes(0)) return `<file path="${shown}">\n(a binary file: not attached)\n</file>`;
  const cut = data.length > MENTION_FILE_MAX_BYTES;
  const body = data.subarray(0, MENTION_FILE_MAX_BYTES).toString("utf8");
  return `<file path="${shown}">\n${body}${body.endsWith("\n") ? "" : "\n"}${cut ? `(cut: the first ${MENTION_FILE_MAX_BYTES} of ${data.length} bytes; read the rest with the read tool)\n` : ""}</file>`;
}

function folderText(path: string, shown: string): string {
  let entries: string[];
  try {
    entries = readdirSync(path, { withFileTypes: true }).filter((e) => e.name !== ".git")
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  } catch (err) {
    return `<folder path="${shown}">\n(cannot be listed: ${(err as Error).message})\n</folder>`;
  }
  const more = entries.length > LISTING_MAX ? `\n(and ${entries.length - LISTING_MAX} more)` : "";
  return `<folder path="${shown}">\n${entries.slice(0, LISTING_MAX).join("\n")}${more}\n</folder>`;
}
