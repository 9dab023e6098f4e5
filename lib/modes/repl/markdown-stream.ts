// Streamed markdown, block by block: the answer's text is lexed as it arrives; a block is
// rendered and committed once nothing later can change it (a following block exists, or a
// blank line ends a paragraph, table or heading, or a code fence has closed). The block still
// growing is rendered afresh at the current width for the live area, so a resize re-wraps it.
import type { Token } from "marked";
import { lexMarkdown, type MarkdownRenderer } from "./markdown.ts";

/** Rows of the growing block shown in the live area; the rest of it appears once committed. */
const LIVE_ROWS = 16;

export class MarkdownStream {
  /** Text not committed yet (the growing block, and anything after it). */
  private pending = "";
  /** Blocks committed since the answer started (a blank row goes before each later one). */
  private committed = 0;

  constructor(private readonly renderer: MarkdownRenderer) {}

  get active(): boolean {
    return this.pending !== "";
  }

  /** Adds streamed text; returns the rows of the blocks it completed. */
  append(delta: string, width: number): string[] {
    this.pending += delta.replace(/\r\n?/g, "\n");
    const tokens = lexMarkdown(this.pending);
    const done = completeCount(tokens);
    if (done === 0) return [];
    const complete = tokens.slice(0, done);
    this.pending = this.pending.slice(complete.reduce((n, t) => n + t.raw.length, 0));
    return this.render(complete, width);
  }

  /** The growing block's last rows, for the live area. */
  liveLines(width: number): string[] {
    if (this.pending.trim() === "") return [];
    const rows = this.renderer.blocks(lexMarkdown(this.pending), width);
    // The blank row the block gets once committed, so committing does not shift it.
    return [...(this.committed > 0 && rows.length > 0 ? [""] : []), ...rows].slice(-LIVE_ROWS);
  }

  /** Ends the answer: renders whatever is left, and the next text starts a new answer. */
  finish(width: number): string[] {
    const rows = this.pending.trim() === "" ? [] : this.render(lexMarkdown(this.pending), width);
    this.pending = "";
    this.committed = 0;
    return rows;
  }

  private render(tokens: Token[], width: number): string[] {
    const rows: string[] = [];
    for (const token of tokens) {
      const block = this.renderer.block(token, width);
      if (block.length === 0) continue;
      if (this.committed > 0) rows.push("");
      rows.push(...block);
      this.committed += 1;
    }
    return rows;
  }
}

/** How many leading tokens are final: every block before the last one, and the last one when it has ended. */
export function completeCount(tokens: Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.type === "space") last -= 1;
  if (last < 0) return 0;
  const block = tokens[last]!;
  const blankAfter = last < tokens.length - 1;
  return hasEnded(block, blankAfter) ? tokens.length : last;
}

function hasEnded(token: Token, blankAfter: boolean): boolean {
  switch (token.type) {
    case "heading":
    case "hr":
      return blankAfter || token.raw.endsWith("\n");
    case "paragraph":
    case "table":
    case "html":
      return blankAfter;
    case "code":
      return isClosedFence(token.raw);
    default:
      // Lists, quotes and indented code may go on after a blank line.
      return false;
  }
}

/** A fenced code block whose closing fence (and its line end) has arrived. */
function isClosedFence(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
  if (!open || !raw.endsWith("\n")) return false;
  const rows = raw.slice(0, -1).split("\n");
  if (rows.length < 2) return false;
  const close = rows.at(-1)!.trim();
  const fence = open[1]!;
  return close.length >= fence.length && [...close].every((ch) => ch === fence[0]);
}
