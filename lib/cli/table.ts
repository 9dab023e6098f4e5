// The CLI's tables (zot ext list, zot mcp list, zot sessions) and the width the listing commands
// fit their output to.
import { printableLine } from "../terminal-text.ts";

/** A column is never cut narrower than this. */
const MIN_COLUMN = 6;

/**
 * Left-aligned columns separated by two spaces; the last column is not padded. With a `width`
 * (the terminal's), the widest columns give way first, their cells cut with an ellipsis.
 */
export function formatTable(rows: string[][], width = tableWidth()): string {
  rows = rows.map((row) => row.map(printableLine)); // cells from manifests are shown as text
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => [...r[col]].length)));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (width !== undefined && total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
  }
  const cut = (cell: string, col: number) => ([...cell].length > widths[col]! ? `${[...cell].slice(0, widths[col]! - 1).join("")}…` : cell);
  return rows
    .map((r) => r.map((cell, col) => (col === r.length - 1 ? cut(cell, col) : cut(cell, col).padEnd(widths[col]!))).join("  ").trimEnd())
    .join("\n");
}

/** COLUMNS when set, else the terminal's width; undefined (no limit) when output goes to a file or pipe. */
export function tableWidth(env: Record<string, string | undefined> = process.env): number | undefined {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 20) return columns;
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : undefined;
}
