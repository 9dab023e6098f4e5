// Markdown for the terminal: marked's lexer gives the token tree, rendered here to styled rows
// that fit a width. Inline: bold, italic, strikethrough, code, links (OSC 8 hyperlinks where
// the terminal has them, else the text and its URL). Blocks: headings, paragraphs, lists,
// quotes, tables, rules and highlighted code fences. The markers themselves are not shown.
import { Lexer, type Token, type Tokens } from "marked";
import { highlightLines } from "./highlight.ts";
import type { Style } from "./style.ts";
import { displayWidth, sanitize, stripAnsi, truncate } from "./text.ts";
import { wrapStyled } from "./wrap.ts";

export interface MarkdownOptions {
  style: Style;
  /** Colours on: code is highlighted and links underlined. */
  color: boolean;
  /** The terminal shows OSC 8 hyperlinks. */
  hyperlinks: boolean;
}

/** The block tokens of `text` (marked's lexer, GitHub-flavoured). */
export function lexMarkdown(text: string): Token[] {
  return Lexer.lex(text, { gfm: true });
}

export class MarkdownRenderer {
  constructor(private readonly o: MarkdownOptions) {}

  /** One block token as rows at most `width` wide (code rows excepted: they are never re-flowed). */
  block(token: Token, width: number): string[] {
    const s = this.o.style;
    const w = Math.max(10, width);
    const t = token as Tokens.Generic;
    switch (token.type) {
      case "space":
      case "def":
        return [];
      case "heading": {
        const h = token as Tokens.Heading;
        const text = this.inline(h.tokens);
        const styled = h.depth <= 2 ? s.bold(s.paint("heading", text)) : s.bold(text);
        return this.wrap(styled, w);
      }
      case "paragraph":
        return this.wrap(this.inline((token as Tokens.Paragraph).tokens), w);
      case "text": {
        const text = token as Tokens.Text;
        return this.wrap(text.tokens ? this.inline(text.tokens) : decodeEntities(text.text), w);
      }
      case "code":
        return this.code(token as Tokens.Code);
      case "blockquote": {
        const bar = s.paint("quote", "│ ");
        return this.blocks((token as Tokens.Blockquote).tokens, w - 2).map((row) => `${bar}${s.italic(row)}`);
      }
      case "list":
        return this.list(token as Tokens.List, w);
      case "table":
        return this.table(token as Tokens.Table, w);
      case "hr":
        return [s.paint("muted", "─".repeat(w))];
      case "html":
        return sanitize(t.text ?? t.raw).replace(/\n+$/, "").split("\n").map((row) => s.paint("muted", row));
      default:
        return sanitize(String(t.text ?? t.raw)).replace(/\n+$/, "").split("\n");
    }
  }

  /** Blocks separated by one blank row. */
  blocks(tokens: Token[], width: number, tight = false): string[] {
    const rows: string[] = [];
    for (const token of tokens) {
      const block = this.block(token, width);
      if (block.length === 0) continue;
      if (rows.length > 0 && !tight) rows.push("");
      rows.push(...block);
    }
    return rows;
  }

  /** Inline tokens as one styled string. */
  inline(tokens: Token[] | undefined): string {
    const s = this.o.style;
    let out = "";
    for (const token of tokens ?? []) {
      const t = token as Tokens.Generic;
      switch (token.type) {
        case "text":
          out += t.tokens ? this.inline(t.tokens) : decodeEntities(sanitize(t.text));
          break;
        case "escape":
          out += t.text;
          break;
        case "strong":
          out += s.bold(this.inline(t.tokens));
          break;
        case "em":
          out += s.italic(this.inline(t.tokens));
          break;
        case "del":
          out += this.o.color ? `\x1b[9m${this.inline(t.tokens)}\x1b[29m` : this.inline(t.tokens);
          break;
        case "codespan":
          out += s.paint("code", decodeEntities(sanitize(t.text)));
          break;
        case "br":
          out += "\n";
          break;
        case "link":
          out += this.link(token as Tokens.Link);
          break;
        case "image": {
          const image = token as Tokens.Image;
          out += `${s.paint("muted", "[image: ")}${sanitize(image.text)}${s.paint("muted", `] ${image.href}`)}`;
          break;
        }
        case "checkbox":
          break;
        default:
          out += decodeEntities(sanitize(String(t.text ?? t.raw ?? "")));
      }
    }
    return out;
  }

  private link(link: Tokens.Link): string {
    const s = this.o.style;
    const text = this.inline(link.tokens);
    const href = sanitize(link.href);
    const underlined = s.paint("link", this.o.color ? `\x1b[4m${text}\x1b[24m` : text);
    if (this.o.hyperlinks) return `\x1b]8;;${href}\x07${underlined}\x1b]8;;\x07`;
    const plain = stripAnsi(text);
    if (plain === href || `mailto:${plain}` === href) return underlined;
    return `${underlined} ${s.paint("muted", `(${href})`)}`;
  }

  private wrap(text: string, width: number, indent = ""): string[] {
    return text.split("\n").flatMap((line) => wrapStyled(line, width, indent, displayWidth(indent)));
  }

  private code(code: Tokens.Code): string[] {
    const s = this.o.style;
    const lang = (code.lang ?? "").trim().split(/\s+/)[0]!.toLowerCase();
    const lines = highlightLines(sanitize(code.text.replace(/\t/g, "  ")), lang, this.o.color ? this.o.style : undefined);
    const bar = s.paint("muted", "│ ");
    return [s.paint("muted", `╭ ${lang || "code"}`), ...lines.map((line) => `${bar}${s.paintBackground("code_background", line)}`),
      s.paint("muted", "╰")];
  }

  private list(list: Tokens.List, width: number): string[] {
    const start = typeof list.start === "number" ? list.start : 1;
    const markers = list.items.map((item, i) => {
      if (item.task) return item.checked ? "☑" : "☐";
      return list.ordered ? `${start + i}.` : "•";
    });
    const markerWidth = Math.max(...markers.map((m) => displayWidth(m)));
    const rows: string[] = [];
    list.items.forEach((item, i) => {
      const marker = markers[i]!.padStart(list.ordered ? markerWidth : 1);
      const pad = " ".repeat(displayWidth(marker) + 1);
      const body = this.blocks(item.tokens.filter((t) => t.type !== "checkbox"), width - pad.length, !item.loose);
      if (item.loose && i > 0) rows.push("");
      body.forEach((row, j) => rows.push(`${j === 0 ? `${this.o.style.paint("muted", marker)} ` : pad}${row}`));
      if (body.length === 0) rows.push(this.o.style.paint("muted", marker));
    });
    return rows;
  }

  private table(table: Tokens.Table, width: number): string[] {
    const s = this.o.style;
    const header = table.header.map((cell) => this.inline(cell.tokens));
    const body = table.rows.map((row) => row.map((cell) => this.inline(cell.tokens)));
    const columns = header.length;
    const widths = header.map((_, c) => Math.max(1, ...[header, ...body].map((row) => displayWidth(row[c] ?? ""))));
    // Shrink the widest columns until the table fits (cells then end in an ellipsis).
    const room = width - 3 * (columns - 1);
    while (widths.reduce((a, b) => a + b, 0) > room && Math.max(...widths) > 3) {
      const widest = widths.indexOf(Math.max(...widths));
      widths[widest]! -= 1;
    }
    const cell = (text: string, c: number) => {
      const fitted = displayWidth(text) > widths[c]! ? truncate(stripAnsi(text), widths[c]!) : text;
      const gap = " ".repeat(Math.max(0, widths[c]! - displayWidth(fitted)));
      const align = table.align[c];
      if (align === "right") return gap + fitted;
      if (align === "center") return gap.slice(0, gap.length >> 1) + fitted + gap.slice(gap.length >> 1);
      return fitted + gap;
    };
    const sep = s.paint("muted", " │ ");
    const line = (row: string[]) => row.map((text, c) => cell(text, c)).join(sep).trimEnd();
    return [
      line(header.map((h) => s.bold(h))),
      s.paint("muted", widths.map((w) => "─".repeat(w)).join("─┼─")),
      ...body.map((row) => line(Array.from({ length: columns }, (_, c) => row[c] ?? ""))),
    ];
  }
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** HTML character references as marked leaves them in text (`&amp;`, `&#39;`, `&#x27;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const cp = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** Whether the terminal shows OSC 8 hyperlinks: FORCE_HYPERLINK decides, else known terminals. */
export function hyperlinksSupported(env: Record<string, string | undefined>): boolean {
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== "0" && env.FORCE_HYPERLINK !== "";
  if (env.TMUX !== undefined || env.TERM === "dumb") return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.TERM === "xterm-kitty" || env.TERM === "xterm-ghostty") return true;
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].includes(env.TERM_PROGRAM ?? "")) return true;
  return Number(env.VTE_VERSION ?? 0) >= 5000;
}
