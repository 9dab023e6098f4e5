// What a trusted project extension is: the content of its folder. Every entry's path, kind and
// mode, a file's bytes (SHA-256) and a symlink's target make one digest, so an edit to any file of
// the code (node_modules included) asks for trust again. What a symlink leads to is pinned too
// (the file's bytes, or a folder outside this one as its own content), and so is an `exec` outside
// the folder: what will run is pinned wherever it is. FIFOs, sockets and devices are recorded by
// kind and never read (a FIFO would block the check). File hashes are
// cached by size, mtime, ctime and inode in `$ZOT_HOME/cache/content.json`: a start re-reads only
// what changed, and what it costs is one lstat per entry.
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { writeFileAtomic } from "../../../fs/atomic-write.ts";
import { sha256 } from "../../../lazy-node.ts";

export interface ContentEntry {
  /** Relative to the folder, with "/" separators. */
  path: string;
  kind: "file" | "dir" | "link" | "special";
  /** Permission bits. */
  mode: number;
  /** A file's SHA-256, a link's target. */
  value?: string;
}

export interface FolderContent {
  digest: string;
  entries: ContentEntry[];
}

/** A file's identity when it was hashed: the same identity, the same bytes. */
type Stamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number, sha256: string];

/**
 * Hashes of files by folder and relative path, read once and written back when a check hashed
 * something new. A folder's stamps are replaced by what its last check saw, so files that are
 * gone are forgotten.
 */
export class ContentCache {
  private folders = new Map<string, Map<string, Stamp>>();
  private changed = false;

  constructor(private readonly file?: string) {}

  static async load(file: string): Promise<ContentCache> {
    const cache = new ContentCache(file);
    try {
      const data = JSON.parse(await readFile(file, "utf8")) as Record<string, Record<string, Stamp>>;
      for (const [dir, stamps] of Object.entries(data)) cache.folders.set(dir, new Map(Object.entries(stamps)));
    } catch {
      // missing or damaged: every file is hashed again
    }
    return cache;
  }

  /** The stamps of `dir` to look up, and a fresh map its check fills. */
  begin(dir: string): { known: Map<string, Stamp>; seen: Map<string, Stamp> } {
    return { known: this.folders.get(dir) ?? new Map(), seen: new Map() };
  }

  end(dir: string, known: Map<string, Stamp>, seen: Map<string, Stamp>): void {
    if (seen.size !== known.size) this.changed = true;
    this.folders.set(dir, seen);
  }

  markChanged(): void {
    this.changed = true;
  }

  async save(): Promise<void> {
    if (!this.file || !this.changed) return;
    const data = Object.fromEntries([...this.folders].map(([dir, stamps]) => [dir, Object.fromEntries(stamps)]));
    await writeFileAtomic(this.file, JSON.stringify(data));
    this.changed = false;
  }
}

const inside = (path: string, dir: string) => {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** What a path outside the folder leads to, for a link's or an exec's pin: a file's bytes, a folder's content. */
function targetPin(path: string, root: string, visited: Set<string>): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return "missing";
  }
  // What lies inside this folder is pinned by its own entry.
  if (inside(real, root)) return "inside";
  const info = statSync(real);
  if (info.isFile()) return `file ${sha256().update(readFileSync(real)).digest("hex")}`;
  if (!info.isDirectory()) return "special";
  // A folder outside is pinned as its own content, once.
  if (visited.has(real)) return "dir";
  return `dir ${contentOf(real, new ContentCache(), [], new Set([...visited, real])).digest}`;
}

/**
 * The content of `dir` (which must be a real folder path), through `cache`. `pinned`: files
 * outside it that it runs (an `exec` outside its folder), pinned by their bytes.
 */
export function folderContent(dir: string, cache: ContentCache = new ContentCache(), pinned: string[] = []): FolderContent {
  return contentOf(dir, cache, pinned, new Set([dir]));
}

function contentOf(dir: string, cache: ContentCache, pinned: string[], visited: Set<string>): FolderContent {
  const entries: ContentEntry[] = [];
  const digest = sha256();
  const { known, seen } = cache.begin(dir);
  const add = (entry: ContentEntry) => {
    entries.push(entry);
    // NUL cannot occur in a path: the fields cannot run into each other.
    digest.update(`${entry.kind}\0${entry.mode.toString(8)}\0${entry.path}\0${entry.value ?? ""}\n`);
  };
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = `${folder}${sep}${name}`;
      const rel = `${prefix}${name}`;
      const info = lstatSync(path);
      const mode = info.mode & 0o7777;
      if (info.isSymbolicLink()) add({ path: rel, kind: "link", mode, value: `${readlinkSync(path)}\0${targetPin(path, dir, visited)}` });
      else if (!info.isFile() && !info.isDirectory()) add({ path: rel, kind: "special", mode, value: info.isFIFO() ? "fifo" : info.isSocket() ? "socket" : "device" });
      else if (info.isDirectory()) {
        add({ path: rel, kind: "dir", mode });
        walk(path, `${rel}/`);
      } else {
        let stamp = known.get(rel);
        if (!stamp || stamp[0] !== info.size || stamp[1] !== info.mtimeMs || stamp[2] !== info.ctimeMs || stamp[3] !== info.ino) {
          stamp = [info.size, info.mtimeMs, info.ctimeMs, info.ino, sha256().update(readFileSync(path)).digest("hex")];
          cache.markChanged();
        }
        seen.set(rel, stamp);
        add({ path: rel, kind: "file", mode, value: stamp[4] });
      }
    }
  };
  walk(dir, "");
  for (const file of pinned) add({ path: `exec ${file}`, kind: "file", mode: 0, value: targetPin(file, dir, visited) });
  cache.end(dir, known, seen);
  return { digest: digest.digest("hex"), entries };
}

/** The program a manifest's `exec` names when it lies outside the extension's folder (to pin it); none for a bare command. */
export function execOutside(dir: string, exec: string | undefined): string[] {
  if (!exec || !(isAbsolute(exec) || /[\\/]/.test(exec))) return [];
  const path = resolve(dir, exec);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return [path];
  }
  return inside(real, realpathSync(dir)) ? [] : [path];
}

/** What changed from `before` to `after`, in a few words for the trust question. */
export function describeChanges(before: ContentEntry[], after: ContentEntry[], limit = 4): string {
  const old = new Map(before.map((e) => [e.path, e]));
  const now = new Map(after.map((e) => [e.path, e]));
  const changes: string[] = [];
  for (const [path, entry] of now) {
    const was = old.get(path);
    if (!was) changes.push(`${path} added`);
    else if (was.kind !== entry.kind || was.value !== entry.value) changes.push(`${path} changed`);
    else if (was.mode !== entry.mode) changes.push(`${path} mode changed`);
  }
  for (const path of old.keys()) if (!now.has(path)) changes.push(`${path} removed`);
  if (changes.length === 0) return "its files changed";
  const shown = changes.slice(0, limit).join(", ");
  return changes.length > limit ? `${shown} and ${changes.length - limit} more` : shown;
}
