// The `glob` tool (Claude Code's Glob, same arguments): files whose path matches a pattern under
// a folder, newest first, capped. With ripgrep where it is installed (its --files honour
// .gitignore); a JavaScript walk otherwise (search-files.ts).
import { stat } from "node:fs/promises";
import { relative, join } from "node:path";
import { requireString } from "./args.ts";
import { guardExecute, ToolFailure } from "./failure.ts";
import { globMatches } from "./glob-pattern.ts";
import { boundLines, findRipgrep, runRipgrep, walkFiles } from "./search-files.ts";
import { resolveToolPath, type PathOptions } from "./tool-path.ts";
import type { Tool } from "./types.ts";

export interface SearchToolOptions extends PathOptions {
  /** ripgrep's path; null: always the JavaScript fallback; absent: rg from PATH when there. */
  rgPath?: string | null;
  /** Most results shown (default 100 for glob, 250 lines for grep). */
  maxResults?: number;
  /** Most bytes shown (default SEARCH_MAX_BYTES); long lines are cut either way. */
  maxBytes?: number;
}

/** The folder a search starts from: `path` (jail-checked) or the working directory. */
export function searchRoot(tool: string, args: Record<string, unknown>, options: SearchToolOptions): string {
  if (args.path === undefined || args.path === null || args.path === "") return options.cwd;
  if (typeof args.path !== "string") throw new ToolFailure(`${tool}: \`path\` must be a string (the folder to search)`);
  return resolveToolPath(tool, args.path, options);
}

export function createGlobTool(options: SearchToolOptions): Tool {
  const max = options.maxResults ?? 100;
  return {
    name: "glob",
    source: { kind: "builtin" },
    description: "Find files by name pattern (glob: `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`) under a folder "
      + `(default the working directory), newest first, at most ${max}. A pattern without / matches file names at any depth.`,
    schema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "The glob to match paths against." },
        path: { type: "string", description: "Folder to search (default: the working directory)." },
      },
      required: ["pattern"],
    },
    preview: (args) => `${String(args.pattern ?? "")}${args.path ? ` in ${String(args.path)}` : ""}`,
    execute: guardExecute("glob", async (args, ctx) => {
      const pattern = requireString("glob", args, "pattern", "a glob such as **/*.ts");
      const root = searchRoot("glob", args, options);
      const rg = options.rgPath === undefined ? findRipgrep() : options.rgPath;
      const files = rg
        ? (await runRipgrep(rg, ["--files", "--glob", pattern, "--glob", "!node_modules"], root, ctx.signal)).split("\n").filter(Boolean).map((f) => f.replace(/^\.\//, ""))
        : (await walkFiles(root)).filter((f) => globMatches(pattern, f));
      const dated = await Promise.all(files.map(async (f) => ({ f, t: (await stat(join(root, f)).catch(() => undefined))?.mtimeMs ?? 0 })));
      dated.sort((a, b) => b.t - a.t || a.f.localeCompare(b.f));
      const paths = dated.map(({ f }) => relative(options.cwd, join(root, f)) || f);
      const text = paths.length ? boundLines(paths, max, (n) => `[${n} more not shown: narrow the pattern or the path]`, options.maxBytes) : `No files match ${pattern}.`;
      return { content: [{ type: "text", text }], isError: false };
    }),
  };
}
