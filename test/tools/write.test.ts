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
    expect(out.is_error).toBeFalsy();
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
    expect(out.is_error).toBe(true);
    expect(textOf(out)).toContain("is an existing directory");
    expect(readFileSync(join(cwd, "d", "keep.txt"), "utf8")).toBe("kept");
  });

  it("refuses a path whose parent is a file", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "file"), "x");
    const out = await createWriteTool({ cwd }).execute({ path: "file/child.txt", content: "y" }, context(cwd));
    expect(out.is_error).toBe(true);
    expect(readFileSync(join(cwd, "file"), "utf8")).toBe("x");
  });

  it("requires string content and writes nothing otherwise", async () => {
    const cwd = tempDir();
    const out = await createWriteTool({ cwd }).execute({ path: "x.json", content: { a: 1 } }, context(cwd));
    expect(out.is_error).toBe(true);
    expect(textOf(out)).toContain("`content` must be a string");
    expect(existsSync(join(cwd, "x.json"))).toBe(false);
  });

  it("preview shows the path and size", () => {
    expect(createWriteTool({ cwd: "/x" }).preview!({ path: "a.txt", content: "12345" })).toBe("a.txt (5 B)");
  });
});
