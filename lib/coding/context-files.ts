// Context files: project instructions the user keeps in AGENTS.md (the cross-tool convention) or
// CLAUDE.md, read into the system prompt. Discovery walks from the working directory up to the
// git root (the first folder holding `.git`) or the filesystem root, plus the user-level
// `$ZOT_HOME/AGENTS.md`. Reading never throws: a file that cannot be read is skipped with a warning.
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Per-file cap: instructions past this are cut so one huge file cannot crowd out the conversation. */
export const CONTEXT_FILE_MAX_BYTES = 64 * 1024;

/** Names looked for in each folder, in preference order: only the first present one is read. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface ContextFileSearch {
  /** Folder holding the user-level `AGENTS.md` (`$ZOT_HOME`); no user-level file when absent. */
  userDir?: string;
  /** Per-file cap in bytes (default CONTEXT_FILE_MAX_BYTES). */
  maxBytes?: number;
}

export interface FindContextFilesOptions extends ContextFileSearch {
  cwd: string;
  /** Told about each file that exists but cannot be read. */
  onWarning?: (message: string) => void;
}

export interface ContextFile {
  /** Absolute path of the file as found (not symlink-resolved). */
  path: string;
  /** The text, at most `maxBytes` bytes of the file. */
  content: string;
  /** The file's size in bytes (at least `maxBytes + 1` when truncated). */
  size: number;
  /** True when `content` is only the first `maxBytes` bytes. */
  truncated: boolean;
}

/**
 * The context files for `cwd`, in prompt order: the user-level file first, then the project's
 * from the outermost folder to `cwd` (closest last, so it takes precedence when read). In each
 * folder AGENTS.md wins over CLAUDE.md. Empty files and duplicates (same real path) are left out.
 */
export function findContextFiles(options: FindContextFilesOptions): ContextFile[] {
  const candidates: string[] = [];
  if (options.userDir) {
    const user = join(options.userDir, "AGENTS.md");
    if (isFile(user)) candidates.push(user);
  }
  candidates.push(...projectCandidates(resolve(options.cwd)));

  const seen = new Set<string>();
  const files: ContextFile[] = [];
  for (const path of candidates) {
    const key = realPath(path);
    if (seen.has(key)) continue;
    seen.add(key);
    const file = readContextFile(path, options.maxBytes ?? CONTEXT_FILE_MAX_BYTES, options.onWarning);
    if (file && file.content.trim() !== "") files.push(file);
  }
  return files;
}

/**
 * The system prompt section for `files` ("" when there are none): a heading, then each file's
 * path and contents, with a note where a file was cut at the cap.
 */
export function contextFilesSection(files: readonly ContextFile[]): string {
  if (files.length === 0) return "";
  const parts = [
    "# Project context",
    "",
    "Instructions from context files (AGENTS.md, CLAUDE.md). Follow them. " +
      "Files later in this list are closer to the working directory and take precedence.",
  ];
  for (const file of files) {
    parts.push("", `## ${file.path}`, "", file.content.replace(/\s+$/, ""));
    if (file.truncated) {
      parts.push("", `[truncated: only the first ${Buffer.byteLength(file.content)} of ${file.size} bytes of ${file.path} are shown]`);
    }
  }
  return parts.join("\n");
}

/** Per folder from the git root (or filesystem root) down to `cwd`, the preferred context file. */
function projectCandidates(cwd: string): string[] {
  const found: string[] = [];
  for (let dir = cwd; ; ) {
    const name = CONTEXT_FILE_NAMES.map((n) => join(dir, n)).find(isFile);
    if (name) found.push(name);
    if (exists(join(dir, ".git"))) break; // a folder or, in worktrees and submodules, a file
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return found.reverse();
}

function readContextFile(path: string, maxBytes: number, warn?: (message: string) => void): ContextFile | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const statSize = fstatSync(fd).size;
    // Read to EOF rather than trusting the size: some files (procfs, FUSE) report 0. One byte
    // past the cap tells whether there is more.
    const buffer = Buffer.alloc(maxBytes + 1);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const truncated = read > maxBytes;
    let content = buffer.subarray(0, Math.min(read, maxBytes)).toString("utf8");
    // A cut can split a multi-byte character; drop the broken tail rather than show U+FFFD.
    if (truncated) content = content.replace(/\uFFFD+$/, "");
    return { path, content, size: Math.max(statSize, read), truncated };
  } catch (err) {
    warn?.(`could not read context file ${path}: ${(err as Error).message}`);
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** True for a regular file (following symlinks); a folder named AGENTS.md is not one. */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
