// The terminal as a transcript plus a live area. Finished lines are committed once and scroll
// away like any program's output; the live area below them (streaming line, running tools,
// notes, panels, the prompt line) is erased and redrawn in place on every change.
import { rowsOf } from "./text.ts";

export interface TerminalOut {
  write(text: string): void;
  columns(): number;
  rows(): number;
}

export interface LiveFrame {
  lines: string[];
  /** Where the cursor rests: a line index and a column within that line. */
  cursor: { line: number; column: number };
}

const EMPTY: LiveFrame = { lines: [], cursor: { line: 0, column: 0 } };

export class LiveScreen {
  private frame: LiveFrame = EMPTY;
  /** Row of the cursor counted from the live area's first row, as last drawn. */
  private cursorRow = 0;
  private drawn = false;

  constructor(private readonly out: TerminalOut) {}

  /** Writes finished lines above the live area, then draws `frame` (or the current one) below them. */
  commit(lines: string[], frame: LiveFrame = this.frame): void {
    this.frame = frame;
    if (lines.length === 0) return this.render(frame);
    this.out.write(`\x1b[?25l${this.eraseSeq()}${lines.join("\n")}\n${this.drawSeq()}\x1b[?25h`);
  }

  /** Replaces the live area. */
  render(frame: LiveFrame): void {
    this.frame = frame;
    this.out.write(`\x1b[?25l${this.eraseSeq()}${this.drawSeq()}\x1b[?25h`);
  }

  /** Erases the live area for good (exit): the transcript stays, the cursor ends on a fresh line. */
  close(): void {
    this.out.write(`${this.eraseSeq()}\x1b[?25h`);
    this.frame = EMPTY;
    this.drawn = false;
  }

  private eraseSeq(): string {
    if (!this.drawn) return "\r";
    this.drawn = false;
    return `\r${this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : ""}\x1b[J`;
  }

  private drawSeq(): string {
    const { lines, cursor } = this.frame;
    if (lines.length === 0) {
      this.cursorRow = 0;
      return "";
    }
    const columns = this.out.columns();
    const rows = lines.map((l) => rowsOf(l, columns));
    const total = rows.reduce((a, b) => a + b, 0);
    const line = Math.min(Math.max(cursor.line, 0), lines.length - 1);
    const before = rows.slice(0, line).reduce((a, b) => a + b, 0);
    let targetRow = before + Math.floor(cursor.column / columns);
    const targetCol = cursor.column % columns;
    let seq = lines.join("\n");
    let lastRow = total - 1;
    // A cursor just past a full-width line sits on a row nothing was drawn on yet.
    if (targetRow > lastRow) {
      seq += "\r\n";
      lastRow += 1;
      targetRow = lastRow;
    }
    const up = lastRow - targetRow;
    seq += `${up > 0 ? `\x1b[${up}A` : ""}\r${targetCol > 0 ? `\x1b[${targetCol}C` : ""}`;
    this.cursorRow = targetRow;
    this.drawn = true;
    return seq;
  }
}
