// Word wrap for styled terminal text: breaks at spaces to a column width (a word longer than
// the width is cut), measures with display widths, and carries SGR styling and OSC 8 links
// across the breaks so each row stands alone (the live area may redraw any row by itself).
import { charWidth } from "./text.ts";

const ESCAPE = /\x1b\[[0-9;]*m|\x1b\]8;[^\x07]*\x07/y;

/** Which close code ends each SGR open code's effect. */
function closerOf(code: string): string | undefined {
  const n = Number(code.split(";")[0]);
  if (n === 1 || n === 2) return "22";
  if (n === 3) return "23";
  if (n === 4) return "24";
  if (n === 7) return "27";
  if (n === 9) return "29";
  if ((n >= 30 && n <= 38) || (n >= 90 && n <= 97)) return "39";
  if ((n >= 40 && n <= 48) || (n >= 100 && n <= 107)) return "49";
  return undefined;
}

/** The escapes still in effect after a row, to reopen on the next one. */
class StyleState {
  private open: string[] = [];
  private link: string | undefined;

  apply(seq: string): void {
    if (seq.startsWith("\x1b]8;")) {
      this.link = seq === "\x1b]8;;\x07" ? undefined : seq;
      return;
    }
    const code = seq.slice(2, -1);
    if (code === "" || code === "0") {
      this.open = [];
      return;
    }
    const closer = closerOf(code);
    if (closer !== undefined) this.open.push(seq);
    else this.open = this.open.filter((o) => closerOf(o.slice(2, -1)) !== code);
  }

  reopen(): string {
    return this.open.join("") + (this.link ?? "");
  }

  close(): string {
    return (this.link ? "\x1b]8;;\x07" : "") + (this.open.length > 0 ? "\x1b[0m" : "");
  }
}

function isClosing(seq: string): boolean {
  if (seq.startsWith("\x1b]8;")) return seq === "\x1b]8;;\x07";
  const code = seq.slice(2, -1);
  return code === "" || code === "0" || closerOf(code) === undefined;
}

interface Piece { text: string; width: number; space: boolean }

/** Splits styled text into words, spaces and escapes (escapes have no width). */
function piecesOf(text: string): Array<Piece | { escape: string }> {
  const out: Array<Piece | { escape: string }> = [];
  let i = 0;
  let word = "";
  let wordWidth = 0;
  const flush = () => {
    if (word !== "") out.push({ text: word, width: wordWidth, space: false });
    word = "";
    wordWidth = 0;
  };
  while (i < text.length) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    if (m) {
      flush();
      out.push({ escape: m[0] });
      i += m[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length;
    if (ch === " ") {
      flush();
      out.push({ text: " ", width: 1, space: true });
    } else {
      word += ch;
      wordWidth += charWidth(ch.codePointAt(0)!);
    }
  }
  flush();
  return out;
}

/**
 * Wraps one paragraph of styled text to `width` columns; every row after the first starts
 * with `indent` (plain spaces or styled, counted by its display width `indentWidth`).
 */
export function wrapStyled(text: string, width: number, indent = "", indentWidth = indent.length): string[] {
  const rows: string[] = [];
  const state = new StyleState();
  let row = "";
  let used = 0;
  let pendingSpace = "";
  let hasContent = false;
  // Escapes wait for the next word, so a space between words is never styled by the next one.
  let held = "";
  const limit = Math.max(indentWidth + 1, width);
  const breakRow = () => {
    rows.push(row + state.close());
    row = indent + state.reopen();
    held = "";
    used = indentWidth;
    pendingSpace = "";
    hasContent = false;
  };
  for (const piece of piecesOf(text)) {
    if ("escape" in piece) {
      state.apply(piece.escape);
      // Closing escapes end the previous word; opening ones wait for the next word.
      if (isClosing(piece.escape)) row += piece.escape;
      else held += piece.escape;
      continue;
    }
    if (piece.space) {
      // Spaces at the start of a row are dropped; between words they are kept.
      if (hasContent) pendingSpace += " ";
      continue;
    }
    if (used + pendingSpace.length + piece.width <= limit) {
      row += pendingSpace + held + piece.text;
      held = "";
      used += pendingSpace.length + piece.width;
      pendingSpace = "";
      hasContent = true;
      continue;
    }
    if (hasContent) breakRow();
    row += held;
    held = "";
    pendingSpace = "";
    // A word wider than the row is cut into row-sized slices.
    let rest = piece.text;
    while (rest !== "") {
      let take = "";
      let w = 0;
      for (const ch of rest) {
        const cw = charWidth(ch.codePointAt(0)!);
        if (used + w + cw > limit && (take !== "" || hasContent)) break;
        take += ch;
        w += cw;
      }
      row += take;
      used += w;
      hasContent = true;
      rest = rest.slice(take.length);
      if (rest !== "") breakRow();
    }
  }
  rows.push(row + held);
  return rows;
}
