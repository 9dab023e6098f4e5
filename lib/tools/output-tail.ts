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

  constructor(private readonly maxLines: number, private readonly maxBytes: number) {}

  push(text: string): void {
    if (!text) return;
    this.totalBytes += Buffer.byteLength(text, "utf8");
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
    this.endsWithNewline = text.endsWith("\n");
    this.buffer += text;
    // A char is at least one byte, so maxBytes chars always cover the final maxBytes bytes.
    if (this.buffer.length > 2 * this.maxBytes + 1) this.buffer = this.buffer.slice(-(this.maxBytes + 1));
  }

  result(): TailResult {
    const totalLines = this.newlines + (this.endsWithNewline ? 0 : 1);
    let text = this.buffer.endsWith("\n") ? this.buffer.slice(0, -1) : this.buffer;
    let lines = text.split("\n");
    if (lines.length > this.maxLines) lines = lines.slice(-this.maxLines);
    text = lines.join("\n");
    if (Buffer.byteLength(text, "utf8") > this.maxBytes) {
      text = keepLastBytes(text, this.maxBytes);
      const firstBreak = text.indexOf("\n");
      // Prefer starting at a whole line, unless that would leave nothing.
      if (firstBreak !== -1 && firstBreak < text.length - 1) text = text.slice(firstBreak + 1);
    }
    const shownLines = text === "" ? 0 : text.split("\n").length;
    const truncated = shownLines < totalLines || Buffer.byteLength(text, "utf8") + 1 < this.totalBytes;
    return { text, truncated, totalLines, totalBytes: this.totalBytes, shownLines };
  }
}

export function truncationNote(r: TailResult): string {
  const shownBytes = Buffer.byteLength(r.text, "utf8");
  return `[Output truncated: showing the last ${r.shownLines} lines (${formatBytes(shownBytes)}) of ` +
    `${r.totalLines} lines (${formatBytes(r.totalBytes)}); the earlier output was dropped. ` +
    "Filter the output (grep, tail, head) or redirect it to a file and read that.]";
}
