// The model's reasoning while it streams: its last rows dimmed (italic where colour is on) in
// the live area, then collapsed to one `thought for N lines` summary in the transcript.
import type { Style } from "./style.ts";
import { sanitize, splitFullRows } from "./text.ts";

/** Rows of reasoning kept on screen while it streams; older rows scroll out of view. */
const VISIBLE_ROWS = 8;

export class ThinkingView {
  private text = "";

  constructor(private readonly style: Style) {}

  get active(): boolean {
    return this.text !== "";
  }

  append(delta: string): void {
    this.text += delta;
  }

  /** The last rows of the reasoning so far, wrapped to `columns`. */
  liveLines(columns: number): string[] {
    const rows = this.text.replace(/^\n+/, "").split("\n").flatMap((line) => {
      const split = splitFullRows(sanitize(line), columns);
      return [...split.rows, split.rest];
    });
    const s = this.style;
    return rows.slice(-VISIBLE_ROWS).map((row) => s.paint("muted", s.italic(row)));
  }

  /** Ends the reasoning block: the summary line to commit, or nothing when there was none. */
  collapse(): string[] {
    if (!this.active) return [];
    const count = this.text.trim() === "" ? 0 : this.text.trim().split("\n").length;
    this.text = "";
    return [this.style.paint("muted", `thought for ${count} line${count === 1 ? "" : "s"}`)];
  }
}
