// Text layout for help screens: the width to fit, words wrapped with a hanging indent, and
// two-column tables whose second column wraps under itself. Widths count code points, which is
// right for the ASCII and the few symbols (…, —) help text uses.

/** Narrower than this and a table's descriptions go on lines of their own. */
const MIN_DESCRIPTION = 24;
/** A label column never takes more than this; longer labels get a line of their own. */
const MAX_LABEL = 30;

/**
 * The width help is laid out for: `COLUMNS` when it is a number, else the terminal's width when
 * the output is one, else 80. Never below 20, so wrapping always has room for a word or two.
 */
export function helpWidth(out: { isTTY?: boolean; columns?: number }, env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.COLUMNS);
  const width = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : out.isTTY && out.columns ? out.columns : 80;
  return Math.max(20, width);
}

const length = (text: string) => [...text].length;

/**
 * Words of `text` split into pieces no longer than `max` (a long URL is cut, not overflowed),
 * after a `|` where one falls in the piece (`<anthropic|openai|…>` breaks between choices).
 */
function pieces(word: string, max: number): string[] {
  let chars = [...word];
  const out: string[] = [];
  while (chars.length > max) {
    const bar = chars.slice(0, max).lastIndexOf("|");
    const cut = bar > 0 ? bar + 1 : max;
    out.push(chars.slice(0, cut).join(""));
    chars = chars.slice(cut);
  }
  out.push(chars.join(""));
  return out;
}

/**
 * `text` (one paragraph: runs of white space count as one) wrapped to `width`: the first line
 * starts with `first`, the others with `rest` (the hanging indent). No line ends in a space.
 */
export function wrap(text: string, width: number, first = "", rest = first): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = first;
  let empty = true;
  const room = (prefix: string) => Math.max(1, width - length(prefix));
  for (const word of words) {
    for (const piece of pieces(word, room(rest))) {
      if (empty) {
        // A first prefix that leaves no room for the word: the text starts on the next line.
        if (length(line + piece) <= width || line.trim() === "") line += piece;
        else {
          lines.push(line.trimEnd());
          line = rest + piece;
        }
      } else if (length(`${line} ${piece}`) <= width) line = `${line} ${piece}`;
      else {
        lines.push(line);
        line = rest + piece;
      }
      empty = false;
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

/**
 * Rows of `label  description`, labels left-aligned after `indent` spaces, descriptions in one
 * column wrapped under themselves. A label too long for the column has its description start on
 * the next line; on a narrow screen every description does, indented by `indent + 8`. A label
 * wider than the screen is wrapped itself.
 */
export function table(rows: Array<[label: string, description: string]>, width: number, indent = 2,
  paint: (label: string) => string = (label) => label): string[] {
  const labelWidth = Math.min(MAX_LABEL, Math.max(0, ...rows.map(([label]) => length(label))));
  let column = indent + labelWidth + 2;
  if (width - column < MIN_DESCRIPTION) column = indent + 8;
  const pad = " ".repeat(column);
  const lines: string[] = [];
  for (const [label, description] of rows) {
    const head = " ".repeat(indent) + label;
    if (length(head) > width) {
      lines.push(...wrap(label, width, " ".repeat(indent), " ".repeat(indent + 2)), ...(description ? wrap(description, width, pad) : []));
      continue;
    }
    // Laid out uncoloured; the label's colour goes in afterwards.
    const painted = (line: string) => " ".repeat(indent) + paint(label) + line.slice(head.length);
    if (!description) {
      lines.push(painted(head));
      continue;
    }
    if (length(head) + 2 <= column) {
      const [first, ...more] = wrap(description, width, head.padEnd(column), pad);
      lines.push(painted(first!), ...more);
    } else lines.push(painted(head), ...wrap(description, width, pad));
  }
  return lines;
}

/**
 * Free text for a help screen: paragraphs wrapped to `width`, and rows indented like
 * `  key  text` (a table inside a description) wrapped with the text's column as the indent.
 */
export function paragraphs(text: string, width: number): string[] {
  const lines: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) lines.push(...wrap(paragraph.join(" "), width));
    paragraph = [];
  };
  for (const raw of text.split("\n")) {
    const row = /^(\s+)(\S+\s{2,})(\S.*)$/.exec(raw);
    if (row) {
      flush();
      const head = row[1]! + row[2]!;
      lines.push(...wrap(row[3]!, width, head, " ".repeat(length(head))));
    } else if (raw.trim() === "") {
      flush();
      if (lines.length && lines.at(-1) !== "") lines.push("");
    } else paragraph.push(raw.trim());
  }
  flush();
  while (lines.at(-1) === "") lines.pop();
  return lines;
}
