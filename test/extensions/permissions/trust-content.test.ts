// Escape 8: a project's trust is pinned to its extensions' folder content. The digest changes
// with any file's bytes or mode, any entry added or removed, and a symlink's target; it does
// not change for a check that finds the same files, whose hashes come from the cache.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContentCache, describeChanges, execOutside, folderContent } from "../../../lib/extensions/catalog/trust/content.ts";
import { execFileSync } from "node:child_process";

let dir: string;
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "zot-content-"));
  dir = join(root, "ext");
  mkdirSync(join(dir, "lib"), { recursive: true });
  writeFileSync(join(dir, "main.py"), "print('hi')\n");
  writeFileSync(join(dir, "lib", "util.py"), "X = 1\n");
  symlinkSync("lib/util.py", join(dir, "alias.py"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("folder content", () => {
  it.each([
    ["a file's bytes", () => writeFileSync(join(dir, "lib", "util.py"), "X = 2\n"), "lib/util.py changed"],
    ["a file's mode", () => chmodSync(join(dir, "main.py"), 0o755), "main.py mode changed"],
    ["a new file", () => writeFileSync(join(dir, "payload.sh"), ""), "payload.sh added"],
    ["a removed file", () => unlinkSync(join(dir, "main.py")), "main.py removed"],
    ["a symlink's target", () => { unlinkSync(join(dir, "alias.py")); symlinkSync("/etc/passwd", join(dir, "alias.py")); }, "alias.py changed"],
  ])("changes with %s, and says so", (_what, change, said) => {
    const cache = new ContentCache();
    const before = folderContent(dir, cache);
    change();
    const after = folderContent(dir, cache);
    expect(after.digest).not.toBe(before.digest);
    expect(describeChanges(before.entries, after.entries)).toBe(said);
  });

  it("is the same for the same files, with or without the cache, and an in-place edit that keeps the size is seen", () => {
    const cache = new ContentCache();
    const first = folderContent(dir, cache);
    expect(folderContent(dir, cache).digest).toBe(first.digest);
    expect(folderContent(dir, new ContentCache()).digest).toBe(first.digest);
    writeFileSync(join(dir, "lib", "util.py"), "X = 9\n"); // same size, new mtime and ctime
    expect(folderContent(dir, cache).digest).not.toBe(first.digest);
  });

  it("lists at most a few changes, then how many more", () => {
    const before = folderContent(dir).entries;
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, `new-${i}.js`), "");
    expect(describeChanges(before, folderContent(dir).entries)).toBe("new-0.js added, new-1.js added, new-2.js added, new-3.js added and 2 more");
  });
});

describe("what runs from outside the folder is pinned too", () => {
  it("a symlink to a file outside, an exec outside, and a FIFO: content changes are seen, and a FIFO is never read", () => {
    const base = mkdtempSync(join(tmpdir(), "zot-pin-"));
    try {
      const dir = join(base, "ext");
      const outside = join(base, "elsewhere");
      mkdirSync(dir);
      mkdirSync(outside);
      writeFileSync(join(outside, "real.py"), "print(1)\n");
      writeFileSync(join(outside, "run.sh"), "#!/bin/sh\necho 1\n");
      symlinkSync(join(outside, "real.py"), join(dir, "main.py"));
      execFileSync("mkfifo", [join(dir, "pipe")]);
      const pinned = execOutside(dir, "../elsewhere/run.sh");
      expect(pinned).toEqual([join(dir, "../elsewhere/run.sh")]);
      const before = folderContent(dir, new ContentCache(), pinned);
      expect(before.entries.find((e) => e.path === "pipe")).toMatchObject({ kind: "special", value: "fifo" });
      writeFileSync(join(outside, "real.py"), "print(2)\n");
      const afterLink = folderContent(dir, new ContentCache(), pinned);
      expect(describeChanges(before.entries, afterLink.entries)).toBe("main.py changed");
      writeFileSync(join(outside, "run.sh"), "#!/bin/sh\necho 2\n");
      const afterExec = folderContent(dir, new ContentCache(), pinned);
      expect(describeChanges(afterLink.entries, afterExec.entries)).toBe(`exec ${pinned[0]} changed`);
      writeFileSync(join(dir, "inside.sh"), "#!/bin/sh\n");
      expect(execOutside(dir, "./inside.sh")).toEqual([]);
      expect(execOutside(dir, "python3")).toEqual([]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
