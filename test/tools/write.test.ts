import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../lib/tools/write.ts";
import { context, tempDir, textOf } from "./helpers.ts";

describe("write", () => {
  it("creates the file and its missing parent folders, and reports the bytes written", async () => {
    const cwd = tempDir();
    const content = "héllo\nworld\n";
    const out = await createWriteTool({ cwd }).execute({ path: "a/b/c.txt", content }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(readFileSync(join(cwd, "a", "b", "c.txt"), "utf8")).toBe(content);
    expect(textOf(out)).toBe(`Created a/b/c.txt: wrote ${Buffer.byteLength(content)} bytes.`);
    expect(out.details).toMatchObject({ created: true, bytes: 13 });
  });

  it("replaces an existing file", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "f.txt"), "old content that is longer");
    const out = await createWriteTool({ cwd }).execute({ path: "f.txt", content: "new" }, context(cwd));
    expect(readFileSync(join(cwd, "f.txt"), "utf8")).toBe("new");
    expect(textOf(out)).toContain("Overwrote f.txt: wrote 3 bytes.");
  });

  it("writes an empty file", async () => {
    const cwd = tempDir();
    await createWriteTool({ cwd }).execute({ path: "empty", content: "" }, context(cwd));
    expect(readFileSync(join(cwd, "empty"), "utf8")).toBe("");
  });

  it("refuses to write over a directory and leaves it alone", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "d"));
    writeFileSync(join(cwd, "d", "keep.txt"), "kept");
    const out = await createWriteTool({ cwd }).execute({ path: "d", content: "x" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("is an existing directory");
    expect(readFileSync(join(cwd, "d", "keep.txt"), "utf8")).toBe("kept");
  });

  it("refuses a path whose parent is a file", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "file"), "x");
    const out = await createWriteTool({ cwd }).execute({ path: "file/child.txt", content: "y" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(readFileSync(join(cwd, "file"), "utf8")).toBe("x");
  });

  it("requires string content and writes nothing otherwise", async () => {
    const cwd = tempDir();
    const out = await createWriteTool({ cwd }).execute({ path: "x.json", content: { a: 1 } }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("`content` must be a string");
    expect(existsSync(join(cwd, "x.json"))).toBe(false);
  });

  it("preview shows the path and size", () => {
    expect(createWriteTool({ cwd: "/x" }).preview!({ path: "a.txt", content: "12345" })).toBe("a.txt (5 B)");
  });
});

describe("write: the diff of the change", () => {
  it("overwriting a file puts the diff of old and new text in the details", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "f.txt"), "keep\nold\n");
    const tool = createWriteTool({ cwd });
    const planned = await tool.change!({ path: "f.txt", content: "keep\nnew\n" });
    expect(readFileSync(join(cwd, "f.txt"), "utf8")).toBe("keep\nold\n");
    const out = await tool.execute({ path: "f.txt", content: "keep\nnew\n" }, context(cwd));
    expect(out.details?.diff).toBe("--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n");
    expect(out.details?.diff).toBe(planned);
  });

  it("a new file's diff is all additions; rewriting the same text has no diff", async () => {
    const cwd = tempDir();
    const tool = createWriteTool({ cwd });
    const out = await tool.execute({ path: "n.txt", content: "a\nb\n" }, context(cwd));
    expect(out.details?.diff).toBe("--- n.txt\n+++ n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    const again = await tool.execute({ path: "n.txt", content: "a\nb\n" }, context(cwd));
    expect(again.details).not.toHaveProperty("diff");
  });

  it("a diff past the size limit is cut at a line and marked", async () => {
    const { fileDiff } = await import("../../lib/tools/file-diff.ts");
    const after = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const cut = await fileDiff("big.txt", "", after, 200);
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.diff)).toBeLessThanOrEqual(200);
    expect(cut.diff.endsWith("\n")).toBe(true);
    expect(cut.diff).toContain("+line 0\n");
  });
});
