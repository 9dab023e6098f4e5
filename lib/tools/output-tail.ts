// Collects a command's merged output but keeps only the tail: long-running commands can print
// far more than the model should see, and the end (errors, summaries) matters most.
import { formatBytes, keepLastBytes } from "./file-kind.ts";

export interface TailResult {
  text: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  shownLines: number;
}

export class OutputTail {
  private buffer = "";
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = true;
  private charsSeen = 0;
  /** Set once early output was discarded at a point that may be inside a line. */
  private startsMidLine = false;

  constructor(private readonly maxLines: number, private readonly maxBytes: number) {}

  push(text: string): void {
    if (!text) return;
    this.totalBytes += Buffer.byteLength(text, "utf8");
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
    this.endsWithNewline = text.endsWith("\n");
    this.buffer += text;
    this.charsSeen += text.length;
    // A char is at least one byte, so 2*maxBytes chars cover the final maxBytes bytes with room
    // to drop a partial first line.
    if (this.buffer.length > 4 * this.maxBytes) {
      const cut = this.buffer.length - 2 * this.maxBytes;
      this.startsMidLine = this.buffer[cut - 1] !== "\n";
      this.buffer = this.buffer.slice(cut);
    }
  }

  result(): TailResult {
    const totalLines = this.newlines + (this.endsWithNewline ? 0 : 1);
    let text = this.buffer.endsWith("\n") ? this.buffer.slice(0, -1) : this.buffer;
    let truncated = this.buffer.length < this.charsSeen;
    if (this.startsMidLine) {
      const firstBreak = text.indexOf("\n");
      if (firstBreak !== -1) text = text.slice(firstBreak + 1);
    }
    const lines = text.split("\n");
    if (lines.length > this.maxLines) {
      text = lines.slice(-this.maxLines).join("\n");
      truncated = true;
    }
    if (Buffer.byteLength(text, "utf8") > this.maxBytes) {
      text = dropPartialFirstLine(keepLastBytes(text, this.maxBytes), text);
      truncated = true;
    }
    const shownLines = text === "" ? 0 : text.split("\n").length;
    return { text, truncated, totalLines, totalBytes: this.totalBytes, shownLines };
  }
}

/** `kept` is a suffix of `whole`; when it starts inside a line, drop that partial line (unless it is all there is). */
function dropPartialFirstLine(kept: string, whole: string): string {
  const prefix = whole.slice(0, whole.length - kept.length);
  if (kept === whole || prefix.endsWith("\n")) return kept;
  const firstBreak = kept.indexOf("\n");
  return firstBreak === -1 ? kept : kept.slice(firstBreak + 1);
}

/** The shown and total line counts of a result that starts with `truncationNote`'s note. */
export function parseTruncationNote(text: string): { shown: number; total: number } | undefined {
  const match = /^\[Output truncated: showing the last (\d+) lines \([^)]*\) of (\d+) lines/.exec(text);
  return match ? { shown: Number(match[1]), total: Number(match[2]) } : undefined;
}

export function truncationNote(r: TailResult): string {
  const shownBytes = Buffer.byteLength(r.text, "utf8");
  return `[Output truncated: showing the last ${r.shownLines} lines (${formatBytes(shownBytes)}) of ` +
    `${r.totalLines} lines (${formatBytes(r.totalBytes)}); the earlier output was dropped. ` +
    "Filter the output (grep, tail, head) or redirect it to a file and read that.]";
}
