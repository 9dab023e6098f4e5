// `@path` mentions: existing files and folders are attached for the model, anything else is left
// as typed; confined runs attach nothing outside the working directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attachMentions, MENTION_FILE_MAX_BYTES, MENTIONS_MAX } from "../../lib/coding/mentions.ts";

let root = "";
let cwd = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "zot-mentions-"));
  cwd = join(root, "project");
  mkdirSync(join(cwd, "src", "deep"), { recursive: true });
  writeFileSync(join(cwd, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(cwd, "my notes.txt"), "remember the milk\n");
  writeFileSync(join(root, "outside.txt"), "secret outside\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("@path mentions", () => {
  it("a mentioned file is attached with its text, under its path relative to the project", () => {
    const [file] = attachMentions("explain @src/a.ts please", { cwd });
    expect(file).toMatchObject({ kind: "file", mention: "src/a.ts" });
    expect(file!.text).toBe(`<file path="src/a.ts">\nexport const a = 1;\n</file>`);
  });

  it("a mentioned folder is attached as a listing, folders marked with a slash", () => {
    const [folder] = attachMentions("what is in @src", { cwd });
    expect(folder!.kind).toBe("folder");
    expect(folder!.text).toBe(`<folder path="src">\na.ts\ndeep/\n</folder>`);
  });

  it("trailing punctuation is not part of the path, and a quoted path may hold spaces", () => {
    const found = attachMentions(`see @src/a.ts, and @"my notes.txt".`, { cwd });
    expect(found.map((f) => f.mention)).toEqual(["src/a.ts", "my notes.txt"]);
  });

  it("what is not an existing path is left alone: an e-mail address, a package name, a missing file", () => {
    expect(attachMentions("mail me@src/a.ts or use @types/node or @missing.ts", { cwd })).toEqual([]);
  });

  it("each path once, and at most the cap of mentions", () => {
    for (let i = 0; i < MENTIONS_MAX + 3; i++) writeFileSync(join(cwd, `f${i}.txt`), `${i}\n`);
    expect(attachMentions("@src/a.ts @src/a.ts @./src/a.ts", { cwd })).toHaveLength(1);
    const many = Array.from({ length: MENTIONS_MAX + 3 }, (_, i) => `@f${i}.txt`).join(" ");
    expect(attachMentions(many, { cwd })).toHaveLength(MENTIONS_MAX);
  });

  it("a confined run attaches nothing outside the working directory, by .. or by an absolute path", () => {
    expect(attachMentions("@../outside.txt", { cwd, jail: true })).toEqual([]);
    expect(attachMentions(`@${join(root, "outside.txt")}`, { cwd, jail: true })).toEqual([]);
    expect(attachMentions("@../outside.txt", { cwd })[0]!.text).toContain("secret outside");
  });

  it("a binary file is named but not attached; a large one is cut with a note", () => {
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    writeFileSync(join(cwd, "big.txt"), "x".repeat(MENTION_FILE_MAX_BYTES + 10));
    expect(attachMentions("@blob.bin", { cwd })[0]!.text).toContain("a binary file: not attached");
    const big = attachMentions("@big.txt", { cwd })[0]!.text;
    expect(big).toContain(`the first ${MENTION_FILE_MAX_BYTES} of ${MENTION_FILE_MAX_BYTES + 10} bytes`);
    expect(big.length).toBeLessThan(MENTION_FILE_MAX_BYTES + 300);
  });
});
