import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../lib/tools/edit.ts";
import { context, tempDir, textOf } from "./helpers.ts";

function setup(content: string | Buffer) {
  const cwd = tempDir();
  const file = join(cwd, "f.txt");
  writeFileSync(file, content);
  return { cwd, file, tool: createEditTool({ cwd }) };
}

describe("edit: replacements", () => {
  it("applies a single old_text/new_text pair", async () => {
    const { cwd, file, tool } = setup("one\ntwo\nthree\n");
    const out = await tool.execute({ path: "f.txt", old_text: "two", new_text: "2" }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("one\n2\nthree\n");
    expect(textOf(out)).toContain("Edited f.txt: 1 edit, +1 -1 lines.");
    expect(textOf(out)).toContain("@@ line 2: -1 +1 @@\n-two\n+2");
  });

  it("applies several edits matched against the original text", async () => {
    const { cwd, file, tool } = setup("a = 1\nb = 2\nc = 3\n");
    // The second edit's old_text only exists in the original, not after the first edit.
    const out = await tool.execute({
      path: "f.txt",
      edits: [
        { old_text: "c = 3", new_text: "c = 30\nd = 4" },
        { old_text: "a = 1", new_text: "b = 2 (renamed a)" },
        { old_text: "b = 2\n", new_text: "" },
      ],
    }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("b = 2 (renamed a)\nc = 30\nd = 4\n");
    expect(textOf(out)).toContain("3 edits");
  });

  it("reports only the changed lines when the edit repeats context", async () => {
    const { cwd, tool } = setup("fn() {\n  old();\n}\n");
    const out = await tool.execute({ path: "f.txt", old_text: "fn() {\n  old();\n}", new_text: "fn() {\n  fresh();\n}" }, context(cwd));
    expect(textOf(out)).toContain("@@ line 2: -1 +1 @@\n-  old();\n+  fresh();");
  });

  it("preserves CRLF line endings and a byte-order mark", async () => {
    const { cwd, file, tool } = setup("\uFEFFfirst\r\nsecond\r\nthird\r\n");
    const out = await tool.execute({ path: "f.txt", old_text: "first\nsecond", new_text: "1st\nnew\n2nd" }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("\uFEFF1st\r\nnew\r\n2nd\r\nthird\r\n");
    expect(out.details).toMatchObject({ line_endings: "crlf" });
  });

  it("leaves LF files as LF", async () => {
    const { cwd, file, tool } = setup("x\ny\n");
    await tool.execute({ path: "f.txt", old_text: "x\ny", new_text: "x\nz" }, context(cwd));
    expect(readFileSync(file, "utf8")).toBe("x\nz\n");
  });

  it("caps the diff summary", async () => {
    const { cwd } = setup("start\n");
    const big = Array.from({ length: 100 }, (_, i) => `l${i}`).join("\n");
    const out = await createEditTool({ cwd, maxDiffLines: 5 }).execute({ path: "f.txt", old_text: "start", new_text: big }, context(cwd));
    expect(textOf(out)).toContain("… 96 more diff lines not shown");
  });
});

describe("edit: failures write nothing", () => {
  it("a missing match names the edit", async () => {
    const original = "alpha\nbeta\ngamma\n";
    const { cwd, file, tool } = setup(original);
    const out = await tool.execute({
      path: "f.txt",
      edits: [{ old_text: "alpha", new_text: "A" }, { old_text: "delta", new_text: "D" }],
    }, context(cwd));
    expect(out).toMatchObject({ isError: true, status: "failed" });
    expect(textOf(out)).toContain("edit 2 of 2: old_text was not found in f.txt");
    expect(textOf(out)).toContain("Nothing was written");
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("a near miss in indentation gets a whitespace hint", async () => {
    const { cwd, tool } = setup("def f():\n    return 1\n");
    const out = await tool.execute({ path: "f.txt", old_text: "def f():\n  return 1", new_text: "x" }, context(cwd));
    expect(textOf(out)).toContain("whitespace");
  });

  it("an ambiguous match lists where it matched", async () => {
    const original = "x = 1\ny = 2\nx = 1\n";
    const { cwd, file, tool } = setup(original);
    const out = await tool.execute({ path: "f.txt", edits: [{ old_text: "x = 1", new_text: "x = 9" }] }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("old_text matches 2 places in f.txt (lines 1, 3)");
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("overlapping edits are refused", async () => {
    const original = "abcdef\n";
    const { cwd, file, tool } = setup(original);
    const out = await tool.execute({
      path: "f.txt",
      edits: [{ old_text: "abcd", new_text: "1" }, { old_text: "cdef", new_text: "2" }],
    }, context(cwd));
    expect(textOf(out)).toContain("edit 1 and edit 2 overlap");
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("an edit that changes nothing is an error", async () => {
    const { cwd, tool } = setup("same\n");
    const out = await tool.execute({ path: "f.txt", old_text: "same", new_text: "same" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("unchanged");
  });

  it("malformed edits are explained", async () => {
    const { cwd, tool } = setup("x\n");
    expect(textOf(await tool.execute({ path: "f.txt", edits: [] }, context(cwd)))).toContain("non-empty array");
    expect(textOf(await tool.execute({ path: "f.txt", edits: ["x"] }, context(cwd)))).toContain("edit 1 of 1 must be an object");
    expect(textOf(await tool.execute({ path: "f.txt", edits: [{ old_text: "x" }] }, context(cwd)))).toContain("needs string old_text and new_text");
    expect(textOf(await tool.execute({ path: "f.txt", old_text: "", new_text: "y" }, context(cwd)))).toContain("old_text is empty");
    expect(textOf(await tool.execute({ path: "f.txt" }, context(cwd)))).toContain("give `edits");
  });

  it("a missing file is reported", async () => {
    const cwd = tempDir();
    const out = await createEditTool({ cwd }).execute({ path: "gone.txt", old_text: "a", new_text: "b" }, context(cwd));
    expect(textOf(out)).toContain("file not found: gone.txt");
  });
});

describe("edit: the diff of the change", () => {
  it("details carry a unified diff with context lines; change() gives the same diff without writing", async () => {
    const { cwd, file, tool } = setup("1\n2\n3\n4\n5\n6\n7\n8\n");
    const args = { path: "f.txt", old_text: "5", new_text: "five" };
    const planned = await tool.change!(args);
    expect(readFileSync(file, "utf8")).toBe("1\n2\n3\n4\n5\n6\n7\n8\n");
    const out = await tool.execute(args, context(cwd));
    const diff = out.details?.diff as string;
    expect(diff).toBe(planned);
    expect(diff).toBe("--- f.txt\n+++ f.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  });

  it("a CRLF file is diffed as LF text; an edit that cannot apply has no change to show", async () => {
    const { tool } = setup("a\r\nb\r\n");
    expect(await tool.change!({ path: "f.txt", old_text: "b", new_text: "B" })).toBe("--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n");
    await expect(tool.change!({ path: "f.txt", old_text: "missing", new_text: "x" })).rejects.toThrow(/missing|not found|does not/i);
  });
});
