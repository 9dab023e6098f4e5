// The prompt line's editing, without a terminal: what each key does to the text and the cursor.
import { describe, expect, it } from "vitest";
import { InputLine } from "../../../lib/modes/repl/input-line.ts";
import type { Key } from "../../../lib/modes/repl/keys.ts";

const key = (name: Key["name"], text?: string): Key => ({ name, ...(text !== undefined ? { text } : {}) });
function typed(text: string): InputLine {
  const line = new InputLine();
  for (const ch of text) line.handle(key("rune", ch));
  return line;
}

describe("the prompt line", () => {
  it("types at the cursor, and Enter submits without changing the text", () => {
    const line = typed("helo");
    line.handle(key("left"));
    line.handle(key("rune", "l"));
    expect(line.text).toBe("hello");
    expect(line.cursor).toBe(4);
    expect(line.handle(key("enter"))).toBe("submit");
    expect(line.text).toBe("hello");
  });

  it("backspace and the arrows step over a whole astral character, never half of it", () => {
    const line = typed("a😀b");
    line.handle(key("left"));
    line.handle(key("backspace"));
    expect(line.text).toBe("ab");
    expect(line.cursor).toBe(1);
  });

  it("Ctrl+U cuts before the cursor, Ctrl+K after it, Ctrl+W the word before it", () => {
    const line = typed("one two three");
    line.handle(key("ctrl-w"));
    expect(line.text).toBe("one two ");
    line.handle(key("home"));
    line.handle(key("right"));
    line.handle(key("ctrl-k"));
    expect(line.text).toBe("o");
    const other = typed("keep this");
    for (let i = 0; i < 4; i++) other.handle(key("left"));
    other.handle(key("ctrl-u"));
    expect(other.text).toBe("this");
    expect(other.cursor).toBe(0);
  });

  it("Alt+Enter adds a line break and a paste keeps its line breaks, CRLF as LF", () => {
    const line = typed("a");
    line.handle(key("newline"));
    line.handle(key("paste", "b\r\nc"));
    expect(line.text).toBe("a\nb\nc");
  });

  it("up and down browse the submitted lines and come back to the draft", () => {
    const line = typed("first");
    line.take();
    for (const ch of "second") line.handle(key("rune", ch));
    line.take();
    for (const ch of "draft") line.handle(key("rune", ch));
    line.handle(key("up"));
    expect(line.text).toBe("second");
    line.handle(key("up"));
    expect(line.text).toBe("first");
    line.handle(key("up"));
    expect(line.text).toBe("first");
    line.handle(key("down"));
    line.handle(key("down"));
    expect(line.text).toBe("draft");
  });

  it("take records a line once: a repeat of the last one is not stored twice", () => {
    const line = typed("same");
    line.take();
    for (const ch of "same") line.handle(key("rune", ch));
    line.take();
    line.handle(key("up"));
    line.handle(key("up"));
    expect(line.text).toBe("same");
    line.handle(key("down"));
    expect(line.text).toBe("");
  });
});
