// Theme bundles' files: where they are looked for, what a theme in them may say, and how a mistake
// in one is reported without losing the rest.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBundleThemes } from "../../../lib/theme/theme-file.ts";
import { themeFiles } from "../../../lib/theme/theme-files.ts";
import { findTheme } from "../../../lib/theme/themes.ts";
import { EXAMPLES } from "../../examples/support.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function bundle(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "zot-theme-"));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  }
  return dir;
}

describe("theme bundles", () => {
  it("read theme.json and every themes/*.json, each theme over the colours of the one it extends", () => {
    const dir = bundle({
      "theme.json": { name: "one", colors: { heading: "#00ff00" } },
      "themes/b.json": { name: "two", extends: "light", colors: { error: 160 } },
      "themes/a.json": { name: "three", colors: {} },
      "themes/notes.txt": "not a theme",
    });
    expect(themeFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual(["theme.json", "themes/a.json", "themes/b.json"]);
    const { themes, warnings, errors } = readBundleThemes(dir);
    expect([warnings, errors]).toEqual([[], []]);
    expect(themes.map((t) => t.name)).toEqual(["one", "three", "two"]);
    expect(themes[0]!.colours.heading).toEqual({ kind: "rgb", r: 0, g: 255, b: 0 });
    expect(themes[0]!.colours.error).toEqual(findTheme("dark")!.colours.error);
    expect(themes[2]!.colours.error).toEqual({ kind: "index", index: 160 });
    expect(themes[2]!.colours.heading).toEqual(findTheme("light")!.colours.heading);
  });

  it("an unknown slot is a warning; a bad colour is an error naming the slot, and the slot keeps its default", () => {
    const { themes, warnings, errors } = readBundleThemes(bundle({ "theme.json": { name: "odd", colors: { headng: "red", error: "#12" } } }));
    expect(warnings).toEqual(['theme.json: theme odd: unknown slot "headng" is ignored']);
    expect(errors).toEqual([expect.stringMatching(/^theme\.json: theme odd: error: "#12" is not a colour .*; it keeps dark's colour$/)]);
    expect(themes[0]!.colours.error).toEqual(findTheme("dark")!.colours.error);
  });

  it("a file that is not a theme is an error and offers nothing", () => {
    const { themes, errors } = readBundleThemes(bundle({
      "themes/a.json": "{ not json", "themes/b.json": { name: "Bad Name" }, "themes/c.json": { name: "c", extends: "sepia" },
    }));
    expect(themes).toEqual([]);
    expect(errors).toEqual([
      expect.stringMatching(/^themes\/a\.json: invalid JSON/),
      'themes/b.json: name must be lowercase letters, digits, - or _ (got "Bad Name")',
      'themes/c.json: extends must be "dark" or "light" (got "sepia")',
    ]);
  });

  it("the example theme bundle reads cleanly", () => {
    const { themes, warnings, errors } = readBundleThemes(join(EXAMPLES, "theme-forest"));
    expect([warnings, errors]).toEqual([[], []]);
    expect(themes.map((t) => t.name)).toEqual(["forest-day", "forest"]); // file order: forest-day.json sorts first
  });
});
