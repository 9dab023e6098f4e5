import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadManifest } from "../../lib/extensions/catalog/manifest.ts";
import { sandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

/** Writes `<scratch>/<folder>/extension.json` (and `extra` files) and returns the folder. */
function folder(name: string, manifest: unknown, extra: Record<string, string> = {}): string {
  const dir = join(sb.scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), typeof manifest === "string" ? manifest : JSON.stringify(manifest));
  for (const [file, text] of Object.entries(extra)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const valid = { name: "weather", version: "1.0.0", exec: "./weather", args: ["--mode", "daemon"], language: "go",
  description: "current weather for any city", skills: ["skills"], enabled: true };

describe("Layout & discovery: extension.json", () => {
  it("accepts the spec's manifest with every field, keeping unknown fields", async () => {
    const dir = folder("weather", { ...valid, homepage: "https://example.org" });
    const loaded = await loadManifest(dir);
    expect(loaded).toEqual({ dir, kind: "protocol", enabled: true, manifest: { ...valid, homepage: "https://example.org" } });
  });

  it("enabled defaults to true; false disables", async () => {
    expect((await loadManifest(folder("a", { name: "a", exec: "./a" }))).enabled).toBe(true);
    expect((await loadManifest(folder("b", { name: "b", exec: "./b", enabled: false }))).enabled).toBe(false);
  });

  it.each([
    ["name missing", { exec: "./x" }, /name: name is required$/],
    ["name empty", { name: "", exec: "./x" }, /name must not be empty/],
    ["name with a slash", { name: "a/b", exec: "./x" }, /name must not contain slashes/],
    ["version not a string", { name: "x", exec: "./x", version: 1 }, /version must be a string/],
    ["exec not a string", { name: "x", exec: 42 }, /exec must be a string/],
    ["exec empty", { name: "x", exec: "" }, /exec must not be empty/],
    ["args not an array", { name: "x", exec: "./x", args: "--flag" }, /args must be an array of strings/],
    ["args not strings", { name: "x", exec: "./x", args: [1] }, /args must be strings/],
    ["language not a string", { name: "x", exec: "./x", language: ["go"] }, /language must be a string/],
    ["description not a string", { name: "x", exec: "./x", description: {} }, /description must be a string/],
    ["skills not an array", { name: "x", exec: "./x", skills: "skills" }, /skills must be an array of strings/],
    ["enabled not a boolean", { name: "x", exec: "./x", enabled: "yes" }, /enabled must be true or false/],
    ["no exec and nothing else to load", { name: "x" }, /exec is required/],
    ["an array", "[1, 2]", /must hold a JSON object, not an array$/],
    ["null", "null", /must hold a JSON object$/],
    ["not JSON", "{ nope", /invalid JSON/],
  ])("rejects a manifest with %s, naming the folder's extension.json", async (_what, manifest, message) => {
    const dir = folder("bad", manifest);
    const error = await loadManifest(dir).then(() => undefined, (err: Error) => err);
    expect(error?.message).toMatch(message);
    expect(error?.message.startsWith(`${join(dir, "extension.json")}: `)).toBe(true);
  });

  it("an unreadable manifest is an error naming the folder", async () => {
    const dir = join(sb.scratch, "gone");
    await expect(loadManifest(dir)).rejects.toThrow(`${join(dir, "extension.json")}: cannot read`);
  });

  it("without exec, a theme.json or any themes/*.json makes a theme bundle, a skills list a skill bundle", async () => {
    expect((await loadManifest(folder("t1", { name: "t1" }, { "theme.json": "{}" }))).kind).toBe("theme");
    expect((await loadManifest(folder("t2", { name: "t2" }, { "themes/theme.json": "{}" }))).kind).toBe("theme");
    expect((await loadManifest(folder("t3", { name: "t3" }, { "themes/forest.json": "{}" }))).kind).toBe("theme");
    expect((await loadManifest(folder("s", { name: "s", skills: ["skills"] }))).kind).toBe("skills");
    expect((await loadManifest(folder("p", { name: "p", exec: "./p", skills: ["skills"] }, { "theme.json": "{}" }))).kind).toBe("protocol");
  });
});
