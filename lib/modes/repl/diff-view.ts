// A file change as the REPL shows it: the unified diff from an edit or write, compact and
// coloured, with line numbers (the new file's for kept and added lines, the old file's for
// removed ones), folded to a first screen plus "… N more lines". A new file is all additions,
// so it shows its first lines.
import type { Style } from "./style.ts";
import { sanitize, truncate } from "./text.ts";

/** Diff rows shown before the rest is folded away. */
export const DIFF_VIEW_ROWS = 20;

interface DiffRow { kind: "keep" | "add" | "remove" | "gap"; number: number; text: string }

/** Parses `@@ -a,b +c,d @@` hunks; headers and "\ No newline" markers are left out. */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of diff.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      if (rows.length > 0) rows.push({ kind: "gap", number: 0, text: "" });
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    // Before the first hunk come the `---`/`+++` headers; inside, such a line is a change.
    if (!inHunk || line.startsWith("\\")) continue;
    if (line.startsWith("+")) rows.push({ kind: "add", number: newLine++, text: line.slice(1) });
    else if (line.startsWith("-")) rows.push({ kind: "remove", number: oldLine++, text: line.slice(1) });
    else if (line.startsWith(" ")) {
      rows.push({ kind: "keep", number: newLine++, text: line.slice(1) });
      oldLine++;
    }
  }
  return rows;
}

/** The rows to print under a tool line, indented, each cut to `columns`. */
export function renderDiff(diff: string, style: Style, columns: number, maxRows = DIFF_VIEW_ROWS): string[] {
  const rows = diffRows(diff);
  if (rows.length === 0) return [];
  const digits = String(Math.max(...rows.map((r) => r.number))).length;
  const width = Math.max(20, columns - 1);
  const shown = rows.length > maxRows ? rows.slice(0, maxRows) : rows;
  const out = shown.map((row) => {
    if (row.kind === "gap") return style.paint("diff_context", `  ${" ".repeat(digits)} ⋯`);
    const mark = row.kind === "add" ? "+" : row.kind === "remove" ? "-" : " ";
    const text = truncate(`  ${String(row.number).padStart(digits)} ${mark} ${sanitize(row.text)}`, width);
    return style.paint(row.kind === "add" ? "diff_added" : row.kind === "remove" ? "diff_removed" : "diff_context", text);
  });
  const hidden = rows.length - shown.length;
  if (hidden > 0) out.push(style.paint("muted", `  … ${hidden} more line${hidden === 1 ? "" : "s"}`));
  return out;
}
