// Escape 10: what an extension or a manifest says reaches a terminal as text. Escape sequences
// and other control characters are removed everywhere zot prints such strings.
import { describe, expect, it } from "vitest";
import { TrustQuestion } from "../../../lib/modes/repl/trust-question.ts";
import { stderrNoteLine } from "../../../lib/modes/notes.ts";
import { formatTable } from "../../../lib/cli/table.ts";
import { printable, printableLine } from "../../../lib/terminal-text.ts";
import { makeStyle } from "../../../lib/modes/repl/style.ts";

const ESC = "\u001b";
const hasControls = (text: string) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);

describe("printable", () => {
  it.each([
    ["CSI (clear screen, colours)", `a${ESC}[2J${ESC}[31mb${ESC}[0m`, "ab"],
    ["OSC window title with BEL", `a${ESC}]0;owned\u0007b`, "ab"],
    ["OSC hyperlink with ST", `a${ESC}]8;;http://x${ESC}\\b`, "ab"],
    ["DCS string", `a${ESC}P1$t${ESC}\\b`, "ab"],
    ["8-bit CSI", "a\u009b2Jb", "ab"],
    ["a lone ESC and a carriage return", `a${ESC}\rb`, "ab"],
    ["backspaces that erase what came before", "full access\b\b\b\b\b\b\b\b\b\b\bnone", "full accessnone"],
    ["bidirectional overrides", "a\u202eb\u2066c", "abc"],
  ])("removes %s", (_what, input, output) => {
    expect(printable(input)).toBe(output);
  });

  it("keeps text, tabs, newlines and non-ASCII letters", () => {
    expect(printable("tools: read\tgrep\nÜber ✓ 日本")).toBe("tools: read\tgrep\nÜber ✓ 日本");
    expect(printableLine("two\nlines\tand tab")).toBe("two lines and tab");
  });
});

describe("where extension text reaches a terminal", () => {
  it("the REPL's trust question shows the project's text without its escape sequences", async () => {
    const shown: string[] = [];
    const question = new TrustQuestion((lines) => shown.push(...lines), makeStyle(false));
    void question.ask([{ name: "lint", dir: `/p/.zot/extensions/${ESC}[8mhidden`,
      permissions: [`tools: ${ESC}[1A${ESC}[2Knone`, `fs read: ${ESC}]0;title\u0007{project}`], reason: "not trusted" }]);
    expect(shown.some(hasControls)).toBe(false);
    expect(shown).toContain("    tools: none");
    expect(shown).toContain("    fs read: {project}");
  });

  it("print mode's stderr notes", () => {
    const line = stderrNoteLine({ type: "ext_notify", extension: "x", level: "warn", message: `${ESC}[2J${ESC}]0;pwned\u0007done` });
    expect(line).toBe("[x] warn: done");
  });

  it("zot ext list's table cells (a description cannot break the row or colour the screen)", () => {
    const table = formatTable([["NAME", "DESCRIPTION"], ["x", `line one\nline two ${ESC}[31mred`]]);
    expect(table).toBe("NAME  DESCRIPTION\nx     line one line two red");
  });
});
