// Terminal text measurement: how many columns a string takes (ANSI styling takes none, wide
// CJK/emoji take two) and how many rows it wraps to, so the live area can be erased exactly.

import { printable } from "../../terminal-text.ts";

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** Columns one code point takes: 0 for combining marks and controls, 2 for wide characters. */
export function charWidth(cp: number): number {
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

/** Display width of `text` in columns, ignoring ANSI escapes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of stripAnsi(text)) width += charWidth(ch.codePointAt(0)!);
  return width;
}

/** Rows a line (without newlines) occupies on a terminal `columns` wide. */
export function rowsOf(line: string, columns: number): number {
  const width = displayWidth(line);
  return Math.max(1, Math.ceil(width / Math.max(1, columns)));
}

/** Cuts plain text to at most `columns` columns, marking the cut with an ellipsis. */
export function truncate(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  let out = "";
  let width = 0;
  for (const ch of stripAnsi(text)) {
    const w = charWidth(ch.codePointAt(0)!);
    if (width + w > columns - 1) break;
    out += ch;
    width += w;
  }
  return `${out}…`;
}

/**
 * Splits plain text into the whole rows it fills on a terminal `columns` wide and the rest, so
 * a long streamed paragraph can be committed row by row instead of growing the live area.
 */
export function splitFullRows(text: string, columns: number): { rows: string[]; rest: string } {
  const rows: string[] = [];
  let row = "";
  let width = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (width + w > columns) {
      rows.push(row);
      row = "";
      width = 0;
    }
    row += ch;
    width += w;
  }
  return { rows, rest: row };
}

/** Replaces tabs and strips escape sequences and control characters that would move the cursor. */
export function sanitize(text: string): string {
  return printable(text).replace(/\t/g, "  ");
}
