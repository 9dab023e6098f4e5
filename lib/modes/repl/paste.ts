// Bracketed paste: between ESC[200~ and ESC[201~ every key is literal text, so a pasted block
// (newlines included) lands in the prompt as one edit instead of submitting line by line.
import type { Key } from "./keys.ts";

/** Longest paste kept; the rest is dropped so a runaway paste cannot exhaust memory. */
const MAX_PASTE_CHARS = 1_000_000;

export class PasteCollector {
  private buffer: string | undefined;

  get pasting(): boolean {
    return this.buffer !== undefined;
  }

  /**
   * Feeds one normalized key. Returns the key to act on: the key itself outside a paste,
   * nothing while a paste is being collected, and `{ name: "paste", text }` when it ends.
   */
  feed(key: Key): Key | undefined {
    if (key.name === "paste-start") {
      this.buffer ??= "";
      return undefined;
    }
    if (this.buffer === undefined) return key.name === "paste-end" ? undefined : key;
    // A lost end marker must not swallow every key after it: Ctrl+C drops the paste.
    if (key.name === "ctrl-c") {
      this.buffer = undefined;
      return key;
    }
    if (key.name === "paste-end") {
      const text = this.buffer;
      this.buffer = undefined;
      return { name: "paste", text };
    }
    const piece = literalOf(key);
    if (piece !== undefined && this.buffer.length + piece.length <= MAX_PASTE_CHARS) this.buffer += piece;
    return undefined;
  }
}

/** The text a key stands for inside a paste (CR, LF and Alt+Enter are all line breaks). */
function literalOf(key: Key): string | undefined {
  switch (key.name) {
    case "rune":
      return key.text ?? "";
    case "enter":
    case "newline":
      return "\n";
    case "tab":
      return "\t";
    default:
      return undefined;
  }
}
