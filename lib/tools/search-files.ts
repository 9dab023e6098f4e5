// The files glob and grep search: listed by ripgrep where it is installed (it honours .gitignore
// and skips hidden files), else by walking the tree in JavaScript, which skips hidden entries
// but does not read .gitignore. Both skip node_modules. Paths come back relative to the search root, sorted.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { accessSync, constants } from "node:fs";

/** Most files one search looks at (a guard against searching a whole disk). */
export const SEARCH_MAX_FILES = 100_000;

let cachedRg: string | null | undefined;

/** ripgrep on PATH, or null. */
export function findRipgrep(path = process.env.PATH ?? ""): string | null {
  if (cachedRg !== undefined && path === process.env.PATH) return cachedRg;
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
  if (path === process.env.PATH) cachedRg = found;
  return found;
}

/** Runs ripgrep; resolves with its stdout (exit 1, "nothing found", is not an error). */
export function runRipgrep(rg: string, args: string[], cwd: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"], ...(signal ? { signal } : {}) });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 || code === 1 ? resolveRun(Buffer.concat(out).toString("utf8"))
      : reject(new Error(err.trim().split("\n")[0] || `ripgrep exited with status ${code}`))));
  });
}

/** Every file under `root` (relative, `/`-separated), without hidden entries and node_modules. */
export async function walkFiles(root: string, prefix = "", out: string[] = []): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || out.length >= SEARCH_MAX_FILES) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walkFiles(root, rel, out);
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}
