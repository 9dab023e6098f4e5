import { describe, expect, it } from "vitest";
import { hyperlinksSupported, MarkdownRenderer } from "../../lib/modes/repl/markdown.ts";
import { completeCount, MarkdownStream } from "../../lib/modes/repl/markdown-stream.ts";
import { lexMarkdown } from "../../lib/modes/repl/markdown.ts";
import { makeStyle } from "../../lib/modes/repl/style.ts";
import { findTheme } from "../../lib/theme/themes.ts";
import { displayWidth, stripAnsi } from "../../lib/modes/repl/text.ts";
import { wrapStyled } from "../../lib/modes/repl/wrap.ts";

const plain = (hyperlinks = false) => new MarkdownRenderer({ style: makeStyle(false), color: false, hyperlinks });
const coloured = (hyperlinks = false) => new MarkdownRenderer({ style: makeStyle(true), color: true, hyperlinks });
const render = (md: string, width = 40, r = plain()) => r.blocks(lexMarkdown(md), width);

describe("markdown blocks for the terminal", () => {
  it("inline markers are replaced by styles: bold, italic, code, strikethrough", () => {
    expect(render("a **b** *c* `d` ~~e~~")).toEqual(["a b c d e"]);
    const [row] = render("a **b** *c* `d`", 40, coloured());
    expect(row).toBe("a \x1b[1mb\x1b[22m \x1b[3mc\x1b[23m \x1b[36md\x1b[39m");
  });

  it("links show their URL after the text, or are OSC 8 hyperlinks where the terminal has them", () => {
    expect(render("see [docs](https://x.test/d) and https://y.test")).toEqual(["see docs (https://x.test/d) and", "https://y.test"]);
    const [row] = render("[docs](https://x.test/d)", 40, plain(true));
    expect(row).toBe("\x1b]8;;https://x.test/d\x07docs\x1b]8;;\x07");
    expect(hyperlinksSupported({ TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(hyperlinksSupported({ TERM_PROGRAM: "iTerm.app", FORCE_HYPERLINK: "0" })).toBe(false);
    expect(hyperlinksSupported({ TERM: "xterm-256color" })).toBe(false);
  });

  it("lists get bullets or numbers with hanging indents; headings, quotes and rules lose their markers", () => {
    expect(render("- one\n- two that wraps onto the next row\n  - nested", 20)).toEqual([
      "• one", "• two that wraps", "  onto the next row", "  • nested",
    ]);
    expect(render("3. c\n4. d")).toEqual(["3. c", "4. d"]);
    expect(render("- [x] done\n- [ ] todo")).toEqual(["☑ done", "☐ todo"]);
    expect(render("# Title\n\n> quoted\n\n---", 10)).toEqual(["Title", "", "│ quoted", "", "─".repeat(10)]);
  });

  it("code fences keep their lines, framed, and are highlighted by language", () => {
    expect(render("```ts\nconst a = 1;\n  indented\n```")).toEqual(["╭ ts", "│ const a = 1;", "│   indented", "╰"]);
    const rows = render("```python\ndef f(): pass\n```", 40, coloured());
    expect(rows[1]).toContain("\x1b[35mdef");
    // An unknown language is shown as it is.
    expect(render("```nosuchlang\n<x> & y\n```", 40, coloured())[1]).toBe("\x1b[2m│ \x1b[22m<x> & y");
  });

  it("a theme's code_background is drawn behind a whole code line, highlighted spans included", () => {
    const dark = findTheme("dark")!;
    const theme = { name: "boxed", colours: { ...dark.colours, code_background: { kind: "rgb" as const, r: 40, g: 40, b: 40 } } };
    const r = new MarkdownRenderer({ style: makeStyle(true, { theme, depth: "truecolor" }), color: true, hyperlinks: false });
    const [, line] = render("```python\ndef f(): pass\n```", 40, r);
    expect(line).toMatch(/^\x1b\[2m│ \x1b\[22m\x1b\[48;2;40;40;40m.*def.*\x1b\[49m$/);
    // Spans end their colour only: nothing inside the line resets the background.
    expect(line).not.toContain("\x1b[0m");
  });

  it("tables are aligned columns that fit the width", () => {
    expect(render("| name | n |\n|---|--:|\n| a | 1 |\n| bbb | 22 |")).toEqual([
      "name │  n", "─────┼───", "a    │  1", "bbb  │ 22",
    ]);
    const narrow = render("| a | b |\n|---|---|\n| a long cell here | another long cell |", 20);
    for (const row of narrow) expect(displayWidth(row)).toBeLessThanOrEqual(20);
  });

  it("character references become characters", () => {
    expect(render("a &amp; b &lt;c&gt; &#39;d&#x27;")).toEqual(["a & b <c> 'd'"]);
  });
});

describe("word wrap of styled text", () => {
  it("breaks at spaces, cuts a word longer than the row, and indents continuation rows", () => {
    expect(wrapStyled("aaa bbb ccc", 7)).toEqual(["aaa bbb", "ccc"]);
    expect(wrapStyled("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrapStyled("aa bb cc", 5, "  ")).toEqual(["aa bb", "  cc"]);
  });

  it("a style open across a break is closed at the row's end and reopened on the next", () => {
    const rows = wrapStyled("x \x1b[1mbold words here\x1b[22m y", 10);
    expect(rows.map(stripAnsi)).toEqual(["x bold", "words here", "y"]);
    expect(rows[0]).toBe("x \x1b[1mbold\x1b[0m");
    expect(rows[1]).toBe("\x1b[1mwords here\x1b[22m");
  });
});

describe("streamed markdown", () => {
  it("a block is committed once complete: a paragraph at a blank line, a fence when it closes", () => {
    const stream = new MarkdownStream(plain());
    expect(stream.append("Some **bo", 40)).toEqual([]);
    expect(stream.liveLines(40)).toEqual(["Some **bo"]);
    expect(stream.append("ld** text\n", 40)).toEqual([]);
    expect(stream.liveLines(40)).toEqual(["Some bold text"]);
    expect(stream.append("\n```sh\necho hi\n", 40)).toEqual(["Some bold text"]);
    expect(stream.liveLines(40)).toEqual(["", "╭ sh", "│ echo hi", "╰"]);
    expect(stream.append("```\n", 40)).toEqual(["", "╭ sh", "│ echo hi", "╰"]);
    expect(stream.append("- a\n- b\n\n", 40)).toEqual([]);
    expect(stream.finish(40)).toEqual(["", "• a", "• b"]);
    // The next answer starts without a blank row.
    expect(stream.append("# Next\n", 40)).toEqual(["Next"]);
  });

  it("the growing block is wrapped at the width of each redraw (a resize re-wraps it)", () => {
    const stream = new MarkdownStream(plain());
    stream.append("one two three four five six", 40);
    expect(stream.liveLines(40)).toEqual(["one two three four five six"]);
    expect(stream.liveLines(12)).toEqual(["one two", "three four", "five six"]);
  });

  it("lists and quotes wait for the next block, since a blank line does not end them", () => {
    expect(completeCount(lexMarkdown("- a\n\n"))).toBe(0);
    expect(completeCount(lexMarkdown("- a\n\nnext"))).toBe(2);
    expect(completeCount(lexMarkdown("para\n"))).toBe(0);
    expect(completeCount(lexMarkdown("para\n\n"))).toBe(2);
    expect(completeCount(lexMarkdown("## head\n"))).toBe(1);
    expect(completeCount(lexMarkdown("```\nopen"))).toBe(0);
  });
});
