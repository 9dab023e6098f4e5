// Removing extension folders that hold read-only folders (as copied from Go's module cache):
// removeTree retries once after making the folders writable, and remove, install --force and
// an install's rollback all go through it. The retry is proven with an injected `rm` that fails
// once with EACCES, because root (which these tests may run as) ignores folder permissions.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeTree, removeTreeSync, type RemoveFn } from "../../lib/extensions/install/remove-tree.ts";
import { makeSandbox, runZot, writeExtension, type Sandbox } from "./support/cli.ts";

/** A `rm` that throws an error with `code` for the first `failures` calls, then removes for real. */
function failingRm(code: string, failures: number, beforeRealRemove: () => void = () => {}) {
  const calls: string[] = [];
  const fn: RemoveFn = async (path, options) => {
    calls.push(path);
    if (calls.length <= failures) throw Object.assign(new Error(`${code}: permission denied, rmdir '${path}'`), { code });
    beforeRealRemove();
    await rm(path, options);
  };
  return { fn, calls };
}

const TREE_PATHS = [".", "pkg", "pkg/mod", "pkg/mod/deep", "pkg/mod/deep/go.mod", "sealed", "sealed/data"];

/** Permission bits of each entry of the test tree (by path: "sealed" cannot be listed). */
function modes(dir: string): Record<string, number> {
  return Object.fromEntries(TREE_PATHS.map((path) => [path, lstatSync(join(dir, path)).mode & 0o7777]));
}

let base: string;
let tree: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "zot-remove-tree-")));
  // Like a Go module cache copy: r-x folders (one searchable only), read-only files,
  // and a link to a read-only folder outside the tree, which must stay as it is.
  tree = join(base, "ext");
  outside = join(base, "outside");
  mkdirSync(join(tree, "pkg", "mod", "deep"), { recursive: true });
  mkdirSync(join(tree, "sealed"));
  mkdirSync(outside);
  writeFileSync(join(tree, "pkg", "mod", "deep", "go.mod"), "module x\n");
  writeFileSync(join(tree, "sealed", "data"), "x");
  writeFileSync(join(outside, "keep"), "x");
  symlinkSync(outside, join(tree, "pkg", "outside-link"));
  chmodSync(join(tree, "pkg", "mod", "deep", "go.mod"), 0o444);
  chmodSync(join(tree, "sealed", "data"), 0o640);
  chmodSync(join(tree, "pkg", "mod", "deep"), 0o555);
  chmodSync(join(tree, "pkg", "mod"), 0o555);
  chmodSync(join(tree, "pkg"), 0o2555);
  chmodSync(join(tree, "sealed"), 0o100);
  chmodSync(outside, 0o555);
});
afterEach(() => removeTreeSync(base));

describe("removeTree", () => {
  it("on EACCES makes every folder owner-writable (parents first, links not followed) and retries once", async () => {
    let seen: Record<string, number> = {};
    const rmOnce = failingRm("EACCES", 1, () => { seen = modes(tree); });
    await removeTree(tree, { rm: rmOnce.fn });
    expect(rmOnce.calls).toEqual([tree, tree]);
    expect(existsSync(tree)).toBe(false);
    // What the retry saw: u+rwx added to each folder, other bits kept, the file untouched.
    expect(seen).toEqual({
      ".": 0o755,
      pkg: 0o2755,
      "pkg/mod": 0o755,
      "pkg/mod/deep": 0o755,
      "pkg/mod/deep/go.mod": 0o444,
      sealed: 0o700,
      "sealed/data": 0o640,
    });
    expect(statSync(outside).mode & 0o777).toBe(0o555);
    expect(readdirSync(outside)).toEqual(["keep"]);
  });

  it("retries EPERM the same way", async () => {
    const rmOnce = failingRm("EPERM", 1);
    await removeTree(tree, { rm: rmOnce.fn });
    expect(rmOnce.calls).toHaveLength(2);
    expect(existsSync(tree)).toBe(false);
  });

  it("removes in one call when nothing fails, changing no mode first", async () => {
    let seen: Record<string, number> = {};
    const before = modes(tree);
    const plain = failingRm("EACCES", 0, () => { seen = modes(tree); });
    await removeTree(tree, { rm: plain.fn });
    expect(plain.calls).toHaveLength(1);
    expect(seen).toEqual(before);
    expect(existsSync(tree)).toBe(false);
  });

  it("throws other errors at once, without touching modes", async () => {
    const before = modes(tree);
    const busy = failingRm("EBUSY", 1);
    await expect(removeTree(tree, { rm: busy.fn })).rejects.toMatchObject({ code: "EBUSY" });
    expect(busy.calls).toHaveLength(1);
    expect(modes(tree)).toEqual(before);
  });

  it("tries only once more: a second EACCES is thrown", async () => {
    const stubborn = failingRm("EACCES", 2);
    await expect(removeTree(tree, { rm: stubborn.fn })).rejects.toMatchObject({ code: "EACCES" });
    expect(stubborn.calls).toHaveLength(2);
    expect(existsSync(tree)).toBe(true);
  });

  it("with the real rm (and its sync twin) removes read-only trees; a missing path is fine", async () => {
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
    await removeTree(tree);
    mkdirSync(join(base, "again", "ro"), { recursive: true });
    writeFileSync(join(base, "again", "ro", "f"), "x");
    chmodSync(join(base, "again", "ro"), 0o555);
    removeTreeSync(join(base, "again"));
    expect(existsSync(join(base, "again"))).toBe(false);
    expect(readdirSync(base).sort()).toEqual(["outside"]);
  });
});

describe("zot ext with read-only folders inside an extension", () => {
  let sb: Sandbox;
  beforeEach(() => { sb = makeSandbox(); });
  afterEach(() => {
    removeTreeSync(sb.base);
  });
  const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

  function readOnlySource(name: string, manifest: Record<string, unknown>): string {
    const src = join(sb.base, "src", name);
    writeExtension(src, manifest, { "vendor/mod/go.mod": "module x\n" });
    chmodSync(join(src, "vendor", "mod"), 0o555);
    chmodSync(join(src, "vendor"), 0o555);
    return src;
  }

  it("install --force replaces, remove deletes, and a failed install rolls back, leaving nothing behind", async () => {
    const src = readOnlySource("ro", { name: "ro" });
    expect((await zot("install", "--yes", src)).code).toBe(0);
    const dest = join(sb.globalRoot, "ro");
    expect(statSync(join(dest, "vendor")).mode & 0o777).toBe(0o555);

    const forced = await zot("install", "--yes", src, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(sb.globalRoot)).toEqual(["ro"]);

    const removed = await zot("remove", "ro", "--yes");
    expect(removed.code, removed.stderr).toBe(0);
    expect(readdirSync(sb.globalRoot)).toEqual([]);

    const broken = readOnlySource("broken", { name: 42 });
    const failed = await zot("install", "--yes", broken);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/invalid/);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });
});
