// The files glob and grep search: listed by ripgrep where it is installed (it honours .gitignore
// in a git repository, and skips hidden files), else by walking the tree in JavaScript, which
// skips hidden entries and reads the search root's .gitignore minimally. Both skip node_modules.
// Paths come back relative to the search root, sorted; output is bounded (boundLines).
import { childProcess } from "../lazy-node.ts";
import { readdir, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { accessSync, constants } from "node:fs";
import { globMatches } from "./glob-pattern.ts";

/** Most files one search looks at (a guard against searching a whole disk). */
export const SEARCH_MAX_FILES = 100_000;

/** Most bytes of ripgrep output kept; past this ripgrep is stopped (the shown part is far smaller). */
export const RIPGREP_MAX_BYTES = 8 * 1024 * 1024;

/** The last lookup, keyed by the PATH it searched (PATH can change while zot runs). */
let cachedRg: { path: string; found: string | null } | undefined;

/** ripgrep on PATH, or null. */
export function findRipgrep(path = process.env.PATH ?? ""): string | null {
  if (cachedRg?.path === path) return cachedRg.found;
  let found: string | null = null;
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, "rg"), constants.X_OK);
      found = join(dir, "rg");
      break;
    } catch {
      // not here
    }
  }
  cachedRg = { path, found };
  return found;
}

/**
 * Runs ripgrep; resolves with its stdout (exit 1, "nothing found", is not an error). Past
 * `maxBytes` of output ripgrep is stopped and the last partial line dropped.
 */
export function runRipgrep(rg: string, args: string[], cwd: string, signal?: AbortSignal, maxBytes = RIPGREP_MAX_BYTES): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = childProcess().spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"], ...(signal ? { signal } : {}) });
    const out: Buffer[] = [];
    let kept = 0;
    let cut = false;
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      if (cut) return;
      out.push(d);
      kept += d.length;
      if (kept > maxBytes) {
        cut = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (cut) {
        const text = Buffer.concat(out).subarray(0, maxBytes).toString("utf8");
        return resolveRun(text.slice(0, text.lastIndexOf("\n") + 1));
      }
      if (code === 0 || code === 1) return resolveRun(Buffer.concat(out).toString("utf8"));
      reject(new Error(err.trim().split("\n")[0] || `ripgrep exited with status ${code}`));
    });
  });
}

/** Most characters of one output line (a minified file is one enormous line). */
export const SEARCH_LINE_MAX_CHARS = 2000;
/** Most bytes a glob or grep result shows, like bash's output cap. */
export const SEARCH_MAX_BYTES = 50 * 1024;

/**
 * The lines a search shows: at most `maxLines`, each cut to `maxLineChars`, together within
 * `maxBytes`, and a note of how many more there are.
 */
export function boundLines(lines: string[], maxLines: number, more: (hidden: number) => string,
  maxBytes = SEARCH_MAX_BYTES, maxLineChars = SEARCH_LINE_MAX_CHARS): string {
  const shown: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, maxLines)) {
    const cutLine = line.length > maxLineChars ? `${line.slice(0, maxLineChars)}… [${line.length - maxLineChars} more characters]` : line;
    bytes += Buffer.byteLength(cutLine, "utf8") + 1;
    if (bytes > maxBytes && shown.length > 0) break;
    shown.push(cutLine);
  }
  const hidden = lines.length - shown.length;
  return `${shown.join("\n")}${hidden > 0 ? `\n${more(hidden)}` : ""}`;
}

/**
 * The search root's own .gitignore, read minimally: one glob per line (a trailing / kept to
 * folders). Not read: `!` re-inclusions, nested or parent .gitignore files, .git/info/exclude.
 */
async function readGitignore(root: string): Promise<(rel: string, isDir: boolean) => boolean> {
  const text = await readFile(join(root, ".gitignore"), "utf8").catch(() => "");
  const rules = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#") && !l.startsWith("!"))
    .map((l) => ({ glob: l.replace(/\/$/, ""), dirOnly: l.endsWith("/") })).filter((r) => r.glob);
  return (rel, isDir) => rules.some((r) => (isDir || !r.dirOnly) && globMatches(r.glob, rel));
}

/**
 * Every file under `root` (relative, `/`-separated), without hidden entries, node_modules and
 * what the root's .gitignore names.
 */
export async function walkFiles(root: string): Promise<string[]> {
  return walkFolder(root, "", [], await readGitignore(root));
}

async function walkFolder(root: string, prefix: string, out: string[], ignored: (rel: string, isDir: boolean) => boolean): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || out.length >= SEARCH_MAX_FILES) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (ignored(rel, entry.isDirectory())) continue;
    if (entry.isDirectory()) await walkFolder(root, rel, out, ignored);
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}
