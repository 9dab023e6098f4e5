// The `grep` tool (Claude Code's Grep, same arguments): a regular expression searched in files
// under a folder, as matching file names (the default), counts, or matching lines with optional
// line numbers and context. With ripgrep where it is installed; a JavaScript search otherwise
// (JavaScript regular expressions; only the search root's .gitignore is read there).
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { describeType, requireString } from "./args.ts";
import { guardExecute, ToolFailure } from "./failure.ts";
import { searchRoot, type SearchToolOptions } from "./glob.ts";
import { isFileOfType } from "./file-types.ts";
import { globMatches } from "./glob-pattern.ts";
import { boundLines, findRipgrep, runRipgrep, walkFiles } from "./search-files.ts";
import type { Tool } from "./types.ts";

const MODES = ["files_with_matches", "content", "count"] as const;
type Mode = (typeof MODES)[number];

interface GrepQuery {
  pattern: string;
  mode: Mode;
  glob?: string;
  type?: string;
  ignoreCase: boolean;
  lineNumbers: boolean;
  before: number;
  after: number;
  multiline: boolean;
}

function count(args: Record<string, unknown>, key: string): number {
  const value = args[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new ToolFailure(`grep: \`${key}\` must be a whole number of lines; got ${describeType(value)}`);
  return value;
}

function query(args: Record<string, unknown>): GrepQuery {
  const pattern = requireString("grep", args, "pattern", "a regular expression");
  const mode = (args.output_mode ?? "files_with_matches") as Mode;
  if (!MODES.includes(mode)) throw new ToolFailure(`grep: \`output_mode\` must be one of ${MODES.join(", ")}`);
  const context = count(args, "-C");
  return {
    pattern, mode, ignoreCase: args["-i"] === true, lineNumbers: args["-n"] === true, multiline: args.multiline === true,
    before: count(args, "-B") || context, after: count(args, "-A") || context,
    ...(typeof args.glob === "string" && args.glob ? { glob: args.glob } : {}),
    ...(typeof args.type === "string" && args.type ? { type: args.type } : {}),
  };
}

function ripgrepArgs(q: GrepQuery, target: string): string[] {
  const args = ["--color=never", "--sort=path", "--no-heading", "--with-filename", "--glob", "!node_modules"];
  if (q.ignoreCase) args.push("-i");
  if (q.multiline) args.push("-U", "--multiline-dotall");
  if (q.glob) args.push("--glob", q.glob);
  if (q.type) args.push("--type", q.type);
  if (q.mode === "files_with_matches") args.push("-l");
  else if (q.mode === "count") args.push("-c");
  else {
    if (q.lineNumbers) args.push("-n");
    if (q.before) args.push("-B", String(q.before));
    if (q.after) args.push("-A", String(q.after));
  }
  args.push("-e", q.pattern, "--", target);
  return args;
}

/** The same output in JavaScript: `file`, `file:count`, or `file:line:text` (`-` for context lines). */
async function searchInJs(root: string, q: GrepQuery, only?: string): Promise<string[]> {
  let regex: RegExp;
  try {
    regex = new RegExp(q.pattern, `${q.ignoreCase ? "i" : ""}${q.multiline ? "gs" : "g"}`);
  } catch (err) {
    throw new ToolFailure(`grep: invalid regular expression: ${(err as Error).message}`);
  }
  const out: string[] = [];
  const files = (only ? [only] : await walkFiles(root)).filter((f) => (!q.glob || globMatches(q.glob, f)) && (!q.type || isFileOfType(q.type, f)));
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(join(root, file), "utf8");
    } catch {
      continue;
    }
    if (text.includes("\u0000")) continue; // binary, as ripgrep skips it
    const lines = text.split("\n");
    const hits = q.multiline ? [...text.matchAll(regex)].map((m) => text.slice(0, m.index).split("\n").length - 1)
      : lines.flatMap((line, i) => ((regex.lastIndex = 0), regex.test(line) ? [i] : []));
    if (hits.length === 0) continue;
    if (q.mode === "files_with_matches") out.push(file);
    else if (q.mode === "count") out.push(`${file}:${hits.length}`);
    else {
      const shown = new Set<number>();
      for (const hit of hits) for (let i = Math.max(0, hit - q.before); i <= Math.min(lines.length - 1, hit + q.after); i++) shown.add(i);
      const hitSet = new Set(hits);
      for (const i of [...shown].sort((a, b) => a - b)) out.push(`${file}${hitSet.has(i) ? ":" : "-"}${q.lineNumbers ? `${i + 1}${hitSet.has(i) ? ":" : "-"}` : ""}${lines[i]}`);
    }
  }
  return out;
}

export function createGrepTool(options: SearchToolOptions): Tool {
  const max = options.maxResults ?? 250;
  return {
    name: "grep",
    source: { kind: "builtin" },
    description: "Search file contents for a regular expression under a folder (default the working directory). output_mode "
      + "files_with_matches (default) lists the files, count gives matches per file, content shows matching lines (-n line "
      + `numbers, -A/-B/-C context). Filter files with glob (\`*.ts\`) or type (\`py\`). At most ${max} lines; head_limit for fewer.`,
    schema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Regular expression to search for." },
        path: { type: "string", description: "File or folder to search (default: the working directory)." },
        glob: { type: "string", description: "Only files matching this glob." },
        type: { type: "string", description: "Only files of this type (js, py, rust, …)." },
        output_mode: { type: "string", enum: [...MODES], description: "What to show (default files_with_matches)." },
        "-i": { type: "boolean", description: "Case-insensitive." },
        "-n": { type: "boolean", description: "Line numbers (content mode)." },
        "-A": { type: "integer", minimum: 0, description: "Lines after each match (content mode)." },
        "-B": { type: "integer", minimum: 0, description: "Lines before each match (content mode)." },
        "-C": { type: "integer", minimum: 0, description: "Lines around each match (content mode)." },
        multiline: { type: "boolean", description: "Let . and the pattern span lines." },
        head_limit: { type: "integer", minimum: 1, description: "Show only the first N lines of output." },
      },
      required: ["pattern"],
    },
    preview: (args) => `${String(args.pattern ?? "")}${args.path ? ` in ${String(args.path)}` : ""}`,
    execute: guardExecute("grep", async (args, ctx) => {
      const q = query(args);
      const given = searchRoot("grep", args, options);
      // A file is searched alone, from its folder.
      const isFile = (await stat(given).catch(() => undefined))?.isFile() === true;
      const root = isFile ? dirname(given) : given;
      const rg = options.rgPath === undefined ? findRipgrep() : options.rgPath;
      const raw = rg ? (await runRipgrep(rg, ripgrepArgs(q, isFile ? basename(given) : "."), root, ctx.signal)).split("\n").filter(Boolean).map((l) => l.replace(/^\.\//, ""))
        : await searchInJs(root, q, isFile ? basename(given) : undefined);
      const prefix = relative(options.cwd, root);
      const lines = prefix ? raw.map((l) => `${prefix}/${l}`) : raw;
      const limit = Math.min(max, typeof args.head_limit === "number" && args.head_limit > 0 ? args.head_limit : max);
      const text = lines.length ? boundLines(lines, limit, (n) => `[${n} more lines not shown]`, options.maxBytes) : `No matches for ${q.pattern}.`;
      return { content: [{ type: "text", text }], isError: false };
    }),
  };
}
