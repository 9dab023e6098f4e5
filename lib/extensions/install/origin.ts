// Where an install came from, kept in `.zot-install.json` inside the extension's folder (it moves
// and is deleted with the folder): the source `zot ext update` fetches again, and the files the
// install put there, so that whatever else the folder holds later is the extension's own data
// and is carried over to the updated copy.
import { lstat, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeSource, type InstallSource } from "./source.ts";

export const ORIGIN_FILE = ".zot-install.json";

/** `.zot-install.json` as written (snake_case, like every file zot writes). */
export interface InstallOrigin {
  version: 1;
  source: InstallSource;
  installed_at: string;
  /** Paths of the files and links the install wrote, relative to the folder, with `/`. */
  files: string[];
}

/** Relative paths of every file and symlink under `dir` (folders are walked, not listed). */
export async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...await filesUnder(dir, rel));
    else if (rel !== ORIGIN_FILE) out.push(rel);
  }
  return out;
}

/** Records, in the staged folder `dir`, that it was installed from `source`, and what it holds now. */
export async function writeOrigin(dir: string, source: InstallSource, now = new Date()): Promise<void> {
  const origin: InstallOrigin = { version: 1, source, installed_at: now.toISOString(), files: (await filesUnder(dir)).sort() };
  await writeFile(join(dir, ORIGIN_FILE), `${JSON.stringify(origin, null, 2)}\n`, { mode: 0o644 });
}

function validSource(value: unknown): value is InstallSource {
  if (!value || typeof value !== "object") return false;
  const s = value as Record<string, unknown>;
  if (s.kind === "folder") return typeof s.path === "string";
  if (s.kind === "git") return typeof s.url === "string" && (s.ref === undefined || typeof s.ref === "string");
  if (s.kind === "giget") return typeof s.source === "string";
  if (s.kind === "marketplace") return typeof s.plugin === "string" && typeof s.marketplace === "string";
  return false;
}

/** The install record of the extension folder `dir`; undefined when there is none or it is unreadable. */
export async function readOrigin(dir: string): Promise<InstallOrigin | undefined> {
  const path = join(dir, ORIGIN_FILE);
  if (!(await lstat(path).catch(() => undefined))?.isFile()) return undefined;
  try {
    const data = JSON.parse(await readFile(path, "utf8")) as Partial<InstallOrigin>;
    if (!validSource(data.source)) return undefined;
    return { version: 1, source: data.source, installed_at: String(data.installed_at ?? ""),
      files: Array.isArray(data.files) ? data.files.filter((f): f is string => typeof f === "string") : [] };
  } catch {
    return undefined;
  }
}

/** "file:///src/notes.git#main", "gh:owner/repo", a folder path: what `zot ext list` shows. */
export const describeOrigin = (origin: InstallOrigin) => describeSource(origin.source);
