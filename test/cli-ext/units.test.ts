// The pure pieces behind `zot ext`: source classification, manifest text edits, link checks.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifySource } from "../../lib/extensions/install/source.ts";
import { assertLinksInside, resolveThroughLinks } from "../../lib/extensions/install/links.ts";
import { rewriteEnabled } from "../../lib/extensions/install/manage.ts";
import { readTail } from "../../lib/cli/ext/logs.ts";

describe("install sources", () => {
  const cwd = "/home/me/work";
  it.each([
    ["gh:owner/repo/sub/dir#v1", { kind: "giget", source: "gh:owner/repo/sub/dir#v1" }],
    ["github:owner/repo", { kind: "giget", source: "github:owner/repo" }],
    ["gitlab:group/repo", { kind: "giget", source: "gitlab:group/repo" }],
    ["bitbucket:o/r", { kind: "giget", source: "bitbucket:o/r" }],
    ["sourcehut:o/r", { kind: "giget", source: "sourcehut:o/r" }],
    ["https://example.com/x/ext.tar.gz", { kind: "giget", source: "https://example.com/x/ext.tar.gz" }],
    ["https://github.com/o/r", { kind: "git", url: "https://github.com/o/r" }],
    ["https://github.com/o/r.git#v2", { kind: "git", url: "https://github.com/o/r.git", ref: "v2" }],
    ["git@github.com:o/r.git", { kind: "git", url: "git@github.com:o/r.git" }],
    ["ssh://git@host/o/r#main", { kind: "git", url: "ssh://git@host/o/r", ref: "main" }],
    ["file:///srv/repo#v1", { kind: "git", url: "file:///srv/repo", ref: "v1" }],
    ["../repos/ext.git#v3", { kind: "git", url: pathToFileURL("/home/me/repos/ext.git").href, ref: "v3" }],
    ["/abs/ext.git", { kind: "git", url: "file:///abs/ext.git" }],
    ["./my-ext", { kind: "folder", path: "/home/me/work/my-ext" }],
    ["/abs/a#b", { kind: "folder", path: "/abs/a#b" }],
  ])("%s", (source, expected) => {
    expect(classifySource(source, cwd)).toEqual(expected);
  });

  it("rejects unknown schemes instead of treating them as folders", () => {
    expect(() => classifySource("npm:some-ext", cwd)).toThrow(/unsupported source/);
    expect(() => classifySource("", cwd)).toThrow(/empty/);
  });
});

describe("rewriteEnabled keeps every other byte", () => {
  it.each([
    ['{"name":"a","enabled":true}', false, '{"name":"a","enabled":false}'],
    ['{"enabled" :false, "name":"a"}', true, '{"enabled" :true, "name":"a"}'],
    ['{"name":"a","nested":{"enabled":false}}', false, '{"name":"a","nested":{"enabled":false},"enabled":false}'],
    ['{\n  "name": "a"\n}\n', false, '{\n  "name": "a",\n  "enabled": false\n}\n'],
    ['{\n\t"name": "a",\n\t"tags": ["x", {"enabled": 1}]\n}', true, '{\n\t"name": "a",\n\t"tags": ["x", {"enabled": 1}],\n\t"enabled": true\n}'],
    ['{"name":"a\\"enabled\\":true","enabled":null}', true, '{"name":"a\\"enabled\\":true","enabled":true}'],
    ['{"name":"a" , "exec":"b"}', false, '{"name":"a" , "exec":"b", "enabled":false}'],
    ['{"name":"a","enabled":true}', true, '{"name":"a","enabled":true}'],
  ])("%s → %s", (text, enabled, expected) => {
    const out = rewriteEnabled(text, enabled as boolean);
    expect(out).toBe(expected);
    expect(JSON.parse(out).enabled).toBe(enabled);
  });

  it("refuses text that is not a JSON object", () => {
    expect(() => rewriteEnabled("[1]", true)).toThrow(/not a JSON object/);
    expect(() => rewriteEnabled("{", true)).toThrow(/invalid JSON/);
  });
});

describe("symlinks in an installed tree", () => {
  let dir: string;
  beforeEach(() => { dir = realpathSync(mkdtempSync(join(tmpdir(), "zot-links-"))); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("follows links before applying '..', as the OS does", async () => {
    mkdirSync(join(dir, "root", "a", "b"), { recursive: true });
    symlinkSync("a/b", join(dir, "root", "deep"));
    expect(await resolveThroughLinks(`${dir}/root/deep/../x`)).toBe(join(dir, "root", "a", "x"));
    symlinkSync(".", join(dir, "root", "self"));
    expect(await resolveThroughLinks(`${dir}/root/self/..`)).toBe(dir);
  });

  it("accepts links inside the tree and rejects escaping, absolute and looping ones", async () => {
    const root = join(dir, "root");
    mkdirSync(join(root, "sub"), { recursive: true });
    writeFileSync(join(root, "file"), "");
    symlinkSync("../file", join(root, "sub", "up-one"));
    symlinkSync("missing-but-inside", join(root, "dangling"));
    await expect(assertLinksInside(root)).resolves.toBeUndefined();

    symlinkSync("loop-b", join(root, "loop-a"));
    symlinkSync("loop-a", join(root, "loop-b"));
    await expect(assertLinksInside(root)).rejects.toThrow(/loop-a -> loop-b points outside/);
    rmSync(join(root, "loop-a"));
    rmSync(join(root, "loop-b"));
    symlinkSync("../../x", join(root, "sub", "escape"));
    await expect(assertLinksInside(root)).rejects.toThrow(/sub\/escape -> \.\.\/\.\.\/x points outside/);
  });
});

describe("log tails", () => {
  it("reads the last lines across chunk boundaries", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-tail-"));
    try {
      const lines = Array.from({ length: 5000 }, (_, i) => `${"x".repeat(i % 97)} ${i}`);
      writeFileSync(join(dir, "log"), `${lines.join("\n")}\n`);
      const { bytes } = await readTail(join(dir, "log"), 1234);
      expect(bytes.toString()).toBe(`${lines.slice(-1234).join("\n")}\n`);
      writeFileSync(join(dir, "empty"), "");
      expect((await readTail(join(dir, "empty"), 10)).bytes.length).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
