// `zot ext install <folder>`: recursive copy into <root>/<manifest name>, or nothing at all.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeExtension, writeFiles, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

/** Entries of an extensions root, hidden staging folders included. */
const entries = (root: string) => (existsSync(root) ? readdirSync(root).sort() : []);

describe("install from a local folder", () => {
  it("copies recursively under the manifest name, keeping modes and inside links, skipping .git", async () => {
    const src = join(sb.base, "src", "my-weather-checkout");
    writeExtension(src, { name: "weather", version: "1.2.3" }, {
      "lib/data.txt": "forecast",
      "node_modules/dep/index.js": "export {}",
      ".git/HEAD": "ref: refs/heads/main",
      ".env.example": "KEY=",
    });
    chmodSync(join(src, "lib", "data.txt"), 0o600);
    chmodSync(join(src, "lib"), 0o750);
    chmodSync(src, 0o751);
    symlinkSync("lib/data.txt", join(src, "data-link"));

    const r = await zot("install", "--yes", "../src/my-weather-checkout");
    expect(r.code).toBe(0);
    const dest = join(sb.globalRoot, "weather");
    expect(r.stdout).toContain(`Installed weather 1.2.3 (global) in ${dest}`);
    expect(r.stdout).toContain("zot ext doctor");
    expect(r.stderr).toContain("Copying");
    expect(entries(sb.globalRoot)).toEqual(["weather"]);
    expect(readdirSync(dest).sort()).toEqual([".env.example", ".zot-install.json", "data-link", "extension.json", "lib", "node_modules", "run.sh"]);
    expect(readFileSync(join(dest, "lib", "data.txt"), "utf8")).toBe("forecast");
    expect(statSync(join(dest, "lib", "data.txt")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dest, "run.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(dest, "lib")).mode & 0o777).toBe(0o750);
    expect(statSync(dest).mode & 0o777).toBe(0o751);
    expect(lstatSync(join(dest, "data-link")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dest, "data-link"))).toBe("lib/data.txt");
    expect(existsSync(join(dest, "node_modules", "dep", "index.js"))).toBe(true);
    expect(JSON.parse((await zot("list", "--json")).stdout)).toEqual([
      expect.objectContaining({ name: "weather", version: "1.2.3", scope: "global", path: dest }),
    ]);
  });

  it("--project installs into the project's .zot/extensions (from --cwd when given)", async () => {
    const src = join(sb.base, "hello");
    writeExtension(src, { name: "hello" });
    const other = join(sb.base, "other");
    mkdirSync(other);
    const results = await Promise.all([zot("install", "--yes", src, "--project"), zot("install", "--yes", src, "--project", "--cwd", other)]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(existsSync(join(sb.projectRoot, "hello", "extension.json"))).toBe(true);
    expect(existsSync(join(other, ".zot", "extensions", "hello", "extension.json"))).toBe(true);
    expect(existsSync(sb.globalRoot)).toBe(false);
  });

  it("refuses a symlink leading outside the folder and leaves nothing behind", async () => {
    const src = join(sb.base, "sneaky");
    writeExtension(src, { name: "sneaky" });
    writeFileSync(join(sb.base, "secret.txt"), "secret");
    symlinkSync("../secret.txt", join(src, "escape"));
    const r = await zot("install", "--yes", src);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: symlink escape -> \.\.\/secret\.txt points outside/m);
    expect(entries(sb.globalRoot)).toEqual([]);
  });

  it("refuses an absolute symlink and one escaping through another link", async () => {
    const abs = join(sb.base, "abs");
    writeExtension(abs, { name: "abs" });
    symlinkSync("/etc", join(abs, "etc"));
    const viaLink = join(sb.base, "via-link");
    writeExtension(viaLink, { name: "via-link" });
    symlinkSync(".", join(viaLink, "here"));
    symlinkSync("here/..", join(viaLink, "parent")); // lexically "." but really the parent folder
    const [a, b] = await Promise.all([zot("install", "--yes", abs), zot("install", "--yes", viaLink)]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/absolute/);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/symlink parent -> here\/\.\. points outside/);
    expect(entries(sb.globalRoot)).toEqual([]);
  });

  it("refuses a folder without extension.json and writes nothing", async () => {
    const src = join(sb.base, "plain");
    writeFiles(src, { "README.md": "hi" });
    const [r, missing] = await Promise.all([zot("install", "--yes", src), zot("install", "--yes", join(sb.base, "does-not-exist"))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: .*plain has no extension\.json/);
    expect(existsSync(sb.globalRoot)).toBe(false);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
  });

  it("rolls back an invalid manifest, and a name that would leave the extensions folder", async () => {
    const invalid = join(sb.base, "invalid");
    writeFiles(invalid, { "extension.json": JSON.stringify({ name: "invalid", exec: 42 }) });
    const dots = join(sb.base, "dots");
    writeExtension(dots, { name: ".." });
    const [a, b] = await Promise.all([zot("install", "--yes", invalid), zot("install", "--yes", dots)]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/extension\.json from .*invalid is invalid: exec: exec must be a string/);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/is invalid: name: name must not be "\.\."/);
    expect(entries(sb.globalRoot)).toEqual([]);
    expect(readdirSync(sb.home)).toEqual(["extensions"]);
  });
});

describe("staging leftovers", () => {
  it("sweeps staging folders of crashed installs older than a day, and keeps young ones", async () => {
    const old = join(sb.globalRoot, ".zot-install-crashed");
    const young = join(sb.globalRoot, ".zot-install-running");
    writeFiles(old, { "extension.json": "{}" });
    writeFiles(young, { "extension.json": "{}" });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    const src = join(sb.base, "fresh");
    writeExtension(src, { name: "fresh" });
    expect((await zot("install", "--yes", src)).code).toBe(0);
    expect(entries(sb.globalRoot)).toEqual([".zot-install-running", "fresh"]);
  });
});

describe("install --force", () => {
  it("refuses to overwrite an install without --force, and replaces it with --force", async () => {
    const v1 = join(sb.base, "v1");
    writeExtension(v1, { name: "tool", version: "1.0.0" }, { "old-only.txt": "old" });
    const v2 = join(sb.base, "v2");
    writeExtension(v2, { name: "tool", version: "2.0.0" });
    expect((await zot("install", "--yes", v1)).code).toBe(0);

    const refused = await zot("install", "--yes", v2);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/tool is already installed at .*; pass --force to replace it/);
    expect(JSON.parse(readFileSync(join(sb.globalRoot, "tool", "extension.json"), "utf8")).version).toBe("1.0.0");
    expect(entries(sb.globalRoot)).toEqual(["tool"]);

    const forced = await zot("install", "--yes", v2, "--force");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^Replaced tool 2\.0\.0/);
    expect(JSON.parse(readFileSync(join(sb.globalRoot, "tool", "extension.json"), "utf8")).version).toBe("2.0.0");
    expect(existsSync(join(sb.globalRoot, "tool", "old-only.txt"))).toBe(false);
    expect(entries(sb.globalRoot)).toEqual(["tool"]);
  });

  it("keeps the existing install when the replacement fails", async () => {
    const good = join(sb.base, "good");
    writeExtension(good, { name: "tool", version: "1.0.0" });
    const bad = join(sb.base, "bad");
    writeFiles(bad, { "extension.json": "{" });
    expect((await zot("install", "--yes", good)).code).toBe(0);
    const r = await zot("install", "--yes", bad, "--force");
    expect(r.code).toBe(1);
    expect(JSON.parse(readFileSync(join(sb.globalRoot, "tool", "extension.json"), "utf8")).version).toBe("1.0.0");
    expect(entries(sb.globalRoot)).toEqual(["tool"]);
  });
});
