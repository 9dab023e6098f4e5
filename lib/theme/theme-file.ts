// Themes from theme bundles: an extension folder's `theme.json`, `themes/theme.json` or several
// `themes/*.json`, each `{"name", "extends"?: "dark"|"light", "colors": {slot: colour}}`. Nothing is
// spawned. A slot zot does not know is a warning; a colour it cannot read is an error naming the
// slot, and the slot keeps the colour of the theme it extends.
import { readFileSync } from "node:fs";
import { themeFiles } from "./theme-files.ts";
import { relative } from "node:path";
import { parseColour, SLOTS, type Slot } from "./palette.ts";
import { findTheme, type Theme } from "./themes.ts";

export interface BundleThemes {
  themes: Theme[];
  warnings: string[];
  errors: string[];
}

/** The themes a bundle offers, with what is wrong in its files (paths relative to the bundle). */
export function readBundleThemes(dir: string): BundleThemes {
  const out: BundleThemes = { themes: [], warnings: [], errors: [] };
  for (const file of themeFiles(dir)) {
    const where = relative(dir, file);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      out.errors.push(`${where}: invalid JSON: ${(err as Error).message}`);
      continue;
    }
    const theme = themeOf(data, where, out);
    if (theme) out.themes.push(theme);
  }
  return out;
}

function themeOf(data: unknown, where: string, out: BundleThemes): Theme | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    out.errors.push(`${where}: a theme is a JSON object with name and colors`);
    return undefined;
  }
  const { name, extends: base = "dark", colors = {} } = data as Record<string, unknown>;
  if (typeof name !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name)) {
    out.errors.push(`${where}: name must be lowercase letters, digits, - or _ (got ${JSON.stringify(name)})`);
    return undefined;
  }
  const parent = typeof base === "string" && (base === "dark" || base === "light") ? findTheme(base)! : undefined;
  if (!parent) {
    out.errors.push(`${where}: extends must be "dark" or "light" (got ${JSON.stringify(base)})`);
    return undefined;
  }
  if (typeof colors !== "object" || colors === null || Array.isArray(colors)) {
    out.errors.push(`${where}: colors must be an object of slot: colour`);
    return undefined;
  }
  const colours = { ...parent.colours };
  for (const [slot, value] of Object.entries(colors)) {
    if (!(SLOTS as readonly string[]).includes(slot)) {
      out.warnings.push(`${where}: theme ${name}: unknown slot "${slot}" is ignored`);
      continue;
    }
    const colour = parseColour(value);
    if (typeof colour === "string") out.errors.push(`${where}: theme ${name}: ${slot}: ${colour}; it keeps ${parent.name}'s colour`);
    else colours[slot as Slot] = colour;
  }
  return { name, colours };
}
