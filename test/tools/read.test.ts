import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../../lib/tools/read.ts";
import { context, tempDir, textOf } from "./helpers.ts";

// A real 1x1 PNG.
const PNG_1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function numbered(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
}

describe("read: text files", () => {
  it("returns the text exactly, without line numbers or a note when it fits", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.txt"), "alpha\n  beta\n\ngamma\n");
    const out = await createReadTool({ cwd }).execute({ path: "a.txt" }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(textOf(out)).toBe("alpha\n  beta\n\ngamma");
  });

  it("offset is a 1-based line and limit a line count; a note gives the next offset", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "n.txt"), numbered(10));
    const out = await createReadTool({ cwd }).execute({ path: "n.txt", offset: 3, limit: 2 }, context(cwd));
    expect(textOf(out)).toBe("line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
    const rest = await createReadTool({ cwd }).execute({ path: "n.txt", offset: "9" }, context(cwd));
    expect(textOf(rest)).toBe("line 9\nline 10");
  });

  it("caps output by lines and says how to read further", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "n.txt"), numbered(50));
    const out = await createReadTool({ cwd, maxLines: 20 }).execute({ path: "n.txt" }, context(cwd));
    const text = textOf(out);
    expect(text.split("\n\n")[0]!.split("\n")).toHaveLength(20);
    expect(text).toContain("[Showing lines 1-20 of 50 (at most 20 lines per call). Use offset=21 to continue.]");
    expect(out.details).toMatchObject({ truncated: true, total_lines: 50 });
  });

  it("caps output by bytes and says how to read further", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "n.txt"), numbered(100));
    const out = await createReadTool({ cwd, maxBytes: 40 }).execute({ path: "n.txt" }, context(cwd));
    const [body, note] = textOf(out).split("\n\n");
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(40);
    const last = Number(/line (\d+)$/.exec(body!)![1]);
    expect(note).toContain(`output limit was reached). Use offset=${last + 1} to continue.`);
  });

  it("shows the start of a line longer than the byte cap and points to bash for the rest", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "long.txt"), `${"é".repeat(100)}\nshort\n`);
    const out = await createReadTool({ cwd, maxBytes: 31 }).execute({ path: "long.txt" }, context(cwd));
    const [head, note] = textOf(out).split("\n\n");
    expect(head).toBe("é".repeat(15)); // 31 bytes cut at a character boundary
    expect(note).toContain("Line 1 of long.txt");
    expect(note).toContain("bash");
    expect(note).toContain("offset=2");
  });

  it("strips CR from CRLF files and a byte-order mark", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "w.txt"), "\uFEFFone\r\ntwo\r\n");
    const out = await createReadTool({ cwd }).execute({ path: "w.txt" }, context(cwd));
    expect(textOf(out)).toBe("one\ntwo");
  });

  it("says when a file is empty and when the offset is past the end", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "empty.txt"), "");
    writeFileSync(join(cwd, "n.txt"), numbered(3));
    const tool = createReadTool({ cwd });
    expect(textOf(await tool.execute({ path: "empty.txt" }, context(cwd)))).toContain("empty");
    const past = await tool.execute({ path: "n.txt", offset: 7 }, context(cwd));
    expect(past.isError).toBe(true);
    expect(textOf(past)).toContain("offset 7 is past the end of n.txt, which has 3 lines");
  });

  it("resolves relative paths against the cwd and expands ~", async () => {
    const cwd = tempDir();
    const home = tempDir();
    mkdirSync(join(cwd, "sub"));
    writeFileSync(join(cwd, "sub", "x.txt"), "in cwd\n");
    writeFileSync(join(home, "h.txt"), "in home\n");
    const tool = createReadTool({ cwd, home });
    expect(textOf(await tool.execute({ path: "sub/x.txt" }, context(cwd)))).toBe("in cwd");
    expect(textOf(await tool.execute({ path: "~/h.txt" }, context(cwd)))).toBe("in home");
    expect(textOf(await tool.execute({ path: join(cwd, "sub", "x.txt") }, context(cwd)))).toBe("in cwd");
  });
});

describe("read: images and binary files", () => {
  it("returns a PNG as a base64 image block", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "pic.dat"), PNG_1x1); // the extension does not matter, the bytes do
    const out = await createReadTool({ cwd }).execute({ path: "pic.dat" }, context(cwd));
    expect(out.isError).toBeFalsy();
    const image = out.content.find((c) => c.type === "image");
    expect(image).toEqual({ type: "image", mime_type: "image/png", data: PNG_1x1.toString("base64") });
  });

  it.each([
    ["image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0])],
    ["image/gif", Buffer.concat([Buffer.from("GIF89a"), Buffer.from([1, 0, 1, 0, 0, 0, 0])])],
    ["image/webp", Buffer.concat([Buffer.from("RIFF"), Buffer.from([20, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(8)])],
  ])("detects %s by its magic bytes", async (mime, bytes) => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "file.bin"), bytes);
    const out = await createReadTool({ cwd }).execute({ path: "file.bin" }, context(cwd));
    expect(out.content.find((c) => c.type === "image")).toMatchObject({ mime_type: mime, data: bytes.toString("base64") });
  });

  it("refuses an image over the size limit with a way out", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "big.png"), Buffer.concat([PNG_1x1, Buffer.alloc(2000)]));
    const out = await createReadTool({ cwd, maxImageBytes: 1000 }).execute({ path: "big.png" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("image limit");
  });

  it("refuses a binary file that is not an image", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "prog.o"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    const out = await createReadTool({ cwd }).execute({ path: "prog.o" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(out.status).toBe("failed");
    expect(textOf(out)).toContain("prog.o is a binary file");
    expect(out.content.some((c) => c.type === "image")).toBe(false);
  });
});

describe("read: mistakes in the call", () => {
  it("a missing file says so and where it looked", async () => {
    const cwd = tempDir();
    const out = await createReadTool({ cwd }).execute({ path: "nope.txt" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain(`file not found: nope.txt (resolved to ${join(cwd, "nope.txt")})`);
  });

  it("a file over the read limit is refused with a pointer to bash", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "huge.log"), "x".repeat(5000));
    const out = await createReadTool({ cwd, maxFileBytes: 4096 }).execute({ path: "huge.log" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("over the 4.0 KiB read limit");
    expect(textOf(out)).toContain("sed -n");
  });

  it("a directory is refused with a hint", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "d"));
    const out = await createReadTool({ cwd }).execute({ path: "d" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("d is a directory");
  });

  it("bad arguments name the argument and do not throw", async () => {
    const cwd = tempDir();
    const tool = createReadTool({ cwd });
    expect(textOf(await tool.execute({}, context(cwd)))).toContain("`path` must be a string");
    expect(textOf(await tool.execute({ path: "a", offset: 0 }, context(cwd)))).toContain("`offset` must be a positive whole number");
    expect(textOf(await tool.execute({ path: "a", limit: "x" }, context(cwd)))).toContain("`limit`");
  });

  it("an already-aborted signal gives a cancelled outcome", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.txt"), "x");
    const ac = new AbortController();
    ac.abort();
    const out = await createReadTool({ cwd }).execute({ path: "a.txt" }, context(cwd, { signal: ac.signal }));
    expect(out).toMatchObject({ isError: true, status: "cancelled" });
  });

  it("preview names the file and range", () => {
    const tool = createReadTool({ cwd: "/x" });
    expect(tool.preview!({ path: "a.ts" })).toBe("a.ts");
    expect(tool.preview!({ path: "a.ts", offset: 10, limit: 5 })).toBe("a.ts:10-14");
  });
});
