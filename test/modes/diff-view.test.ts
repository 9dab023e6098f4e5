import { describe, expect, it } from "vitest";
import { renderDiff } from "../../lib/modes/repl/diff-view.ts";
import { makeStyle } from "../../lib/modes/repl/style.ts";

const style = makeStyle(false);

describe("a file change in the REPL", () => {
  it("shows -/+ and context rows with line numbers, and marks the gap between hunks", () => {
    const diff = "--- f\n+++ f\n@@ -9,3 +9,3 @@\n a\n-b\n+B\n c\n@@ -20,2 +20,3 @@\n x\n+y\n--- sql comment\n\\ No newline at end of file\n";
    expect(renderDiff(diff, style, 80)).toEqual([
      "   9   a", "  10 - b", "  10 + B", "  11   c", "     ⋯", "  20   x", "  21 + y", "  21 - -- sql comment",
    ]);
  });

  it("colours additions green and removals red", () => {
    const [removed, added] = renderDiff("@@ -1 +1 @@\n-a\n+b\n", makeStyle(true), 80);
    expect(removed).toBe("\x1b[31m  1 - a\x1b[39m");
    expect(added).toBe("\x1b[32m  1 + b\x1b[39m");
  });

  it("a long diff is folded to its first rows plus a count; a new file shows its first lines", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `+line ${i + 1}`).join("\n");
    const rows = renderDiff(`--- n\n+++ n\n@@ -0,0 +1,30 @@\n${lines}\n`, style, 80, 5);
    expect(rows).toEqual(["   1 + line 1", "   2 + line 2", "   3 + line 3", "   4 + line 4", "   5 + line 5", "  … 25 more lines"]);
  });
});
