// A sandboxed extension's `call_tool` of a file tool reaches no further than its own sandbox:
// read, write, edit, glob and grep run in zot, outside the sandbox, so the path they are given must lie in
// what the extension's sandbox shows (read: any mount; write and edit: a read-write one) and not in
// what it covers (root-only files, zot's own folders), the way the sandbox itself would decide.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { IsolationReport } from "../runtime/launch-line.ts";

const FILE_TOOLS: Record<string, "read" | "write"> = { read: "read", write: "write", edit: "write", glob: "read", grep: "read" };
/** Tools that search a whole tree (their `path` defaults to the project): nothing covered may lie below it. */
const TREE_TOOLS = new Set(["glob", "grep"]);

const under = (path: string, root: string) => root === "/" || path === root || path.startsWith(`${root}/`);

/** The path as the file tool will open it: `~` expanded, relative to `cwd`, symlinks followed as far as they exist. */
function realTarget(raw: string, cwd: string): string {
  const expanded = raw === "~" ? homedir() : raw.startsWith("~/") ? join(homedir(), raw.slice(2)) : raw;
  let path = isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(path), ...rest);
    } catch {
      if (dirname(path) === path) return join(path, ...rest);
      rest.unshift(basename(path));
      path = dirname(path);
    }
  }
}

/**
 * Why the extension may not have `tool` touch the path in `args`; undefined when it may (or the
 * tool is not a file tool, or the extension is not confined to a sandbox).
 */
export function fileToolRefusal(tool: string, args: Record<string, unknown>, isolation: IsolationReport | null, cwd: string): string | undefined {
  const access = FILE_TOOLS[tool];
  if (!access || !isolation?.read_only || !isolation.read_write) return undefined;
  const tree = TREE_TOOLS.has(tool);
  if (typeof args.path !== "string" && !tree) return undefined; // the tool itself says what is missing
  const path = realTarget(typeof args.path === "string" && args.path !== "" ? args.path : ".", cwd);
  const coveredBelow = tree ? isolation.hidden.find((hidden) => under(hidden, path) && hidden !== path) : undefined;
  if (coveredBelow) return `${tool} would search ${coveredBelow}, which its sandbox covers (its fs permissions)`;
  const roots = access === "write" ? isolation.read_write : [...isolation.read_only, ...isolation.read_write];
  const deepest = (list: string[]) => list.filter((root) => under(path, root)).reduce((a, b) => (b.length > a.length ? b : a), "");
  const shown = deepest(roots);
  const covered = deepest(isolation.hidden);
  // A covered folder hides what lies in it, unless something was mounted again deeper inside.
  if (shown !== "" && (covered === "" || shown.length > covered.length)) return undefined;
  return `${path} is outside what its sandbox ${access === "write" ? "may write" : "may read"} (its fs permissions)`;
}
