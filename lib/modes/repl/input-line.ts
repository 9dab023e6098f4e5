// The editable prompt line: text, a cursor, emacs-style editing keys and history. It knows
// nothing about the terminal; the controller draws `text` and places the cursor.
import type { Key } from "./keys.ts";

export type EditResult = "submit" | "changed" | "unhandled";

export class InputLine {
  text = "";
  /** Cursor position as an index into `text` (UTF-16 units, always at a code point boundary). */
  cursor = 0;
  private readonly history: string[] = [];
  /** Position while browsing history; history.length means "the line being edited". */
  private browse = 0;
  private draft = "";

  /** Inserts text at the cursor (typed runes, pastes, an extension's `insert`); line breaks are kept as LF. */
  insert(text: string): void {
    const clean = text.replace(/\r\n?/g, "\n");
    this.text = this.text.slice(0, this.cursor) + clean + this.text.slice(this.cursor);
    this.cursor += clean.length;
  }

  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  clear(): void {
    this.set("");
  }

  /** Takes the line for submission and records it in history. */
  take(): string {
    const line = this.text;
    if (line.trim() !== "" && this.history.at(-1) !== line) this.history.push(line);
    this.browse = this.history.length;
    this.draft = "";
    this.clear();
    return line;
  }

  /** Drops `line` from the history (a line that may hold a secret). */
  forget(line: string): void {
    const at = this.history.lastIndexOf(line);
    if (at < 0) return;
    this.history.splice(at, 1);
    this.browse = this.history.length;
  }

  handle(key: Key): EditResult {
    switch (key.name) {
      case "enter":
        return "submit";
      case "rune":
      case "paste":
        this.insert(key.text ?? "");
        return "changed";
      case "newline":
        this.insert("\n");
        return "changed";
      case "backspace":
        if (this.cursor === 0) return "changed";
        this.cursor = this.prevBoundary(this.cursor);
        this.text = this.text.slice(0, this.cursor) + this.text.slice(this.nextBoundary(this.cursor));
        return "changed";
      case "delete":
        this.text = this.text.slice(0, this.cursor) + this.text.slice(this.nextBoundary(this.cursor));
        return "changed";
      case "left":
        this.cursor = this.prevBoundary(this.cursor);
        return "changed";
      case "right":
        this.cursor = this.nextBoundary(this.cursor);
        return "changed";
      case "home":
      case "ctrl-a":
        this.cursor = 0;
        return "changed";
      case "end":
      case "ctrl-e":
        this.cursor = this.text.length;
        return "changed";
      case "ctrl-u":
        this.text = this.text.slice(this.cursor);
        this.cursor = 0;
        return "changed";
      case "ctrl-k":
        this.text = this.text.slice(0, this.cursor);
        return "changed";
      case "ctrl-w": {
        const before = this.text.slice(0, this.cursor).replace(/\S+\s*$/, "");
        this.text = before + this.text.slice(this.cursor);
        this.cursor = before.length;
        return "changed";
      }
      case "up":
        return this.recall(-1);
      case "down":
        return this.recall(1);
      default:
        return "unhandled";
    }
  }

  private recall(step: number): EditResult {
    const next = this.browse + step;
    if (next < 0 || next > this.history.length) return "changed";
    if (this.browse === this.history.length) this.draft = this.text;
    this.browse = next;
    this.set(next === this.history.length ? this.draft : this.history[next]!);
    return "changed";
  }

  private prevBoundary(i: number): number {
    if (i <= 0) return 0;
    const code = this.text.charCodeAt(i - 1);
    return code >= 0xdc00 && code <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  }

  private nextBoundary(i: number): number {
    if (i >= this.text.length) return this.text.length;
    const code = this.text.charCodeAt(i);
    return code >= 0xd800 && code <= 0xdbff ? i + 2 : i + 1;
  }
}
