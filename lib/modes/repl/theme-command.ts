// /theme in the REPL: without a name a picker of the themes (the built-in ones and those of theme
// bundles), with one a switch that takes effect at once (the live area and everything drawn after
// it) and is saved for the next start.
import { updateConfig } from "../../config.ts";
import type { ExtensionReport } from "../../extensions/host/report.ts";
import { readBundleThemes } from "../../theme/theme-file.ts";
import { BUILTIN_THEMES, findTheme, type Theme } from "../../theme/themes.ts";
import { Picker } from "./picker.ts";
import type { OpenPicker } from "./pickers.ts";
import type { Style } from "./style.ts";

/** The built-in themes, then those of the theme bundles that loaded (a built-in name wins), and what is wrong in their files. */
export function availableThemes(reports: readonly ExtensionReport[]): { themes: Theme[]; problems: string[] } {
  const themes = [...BUILTIN_THEMES];
  const problems: string[] = [];
  for (const r of reports.filter((x) => x.kind === "theme" && (x.status === "ok" || x.status === "error"))) {
    const bundle = readBundleThemes(r.path);
    problems.push(...bundle.errors.map((e) => `theme bundle ${r.name}: ${e}`));
    themes.push(...bundle.themes.filter((t) => !findTheme(t.name, themes)));
  }
  return { themes, problems };
}

export function themePicker(style: Style, themes: readonly Theme[]): OpenPicker {
  const current = style.theme.name;
  const items = themes.map((t) => ({ value: t.name, label: t.name, ...(t.name === current ? { detail: "current" } : {}) }));
  return { widget: new Picker("Theme", items, current), command: "/theme" };
}

/** Switches to theme `name` and saves the choice; the line that says so, or why not. */
export async function switchTheme(name: string, style: Style, themes: readonly Theme[], configPath: string): Promise<{ ok: boolean; text: string }> {
  const theme = findTheme(name, themes);
  if (!theme) return { ok: false, text: `no theme "${name}" (themes: ${themes.map((t) => t.name).join(", ")})` };
  style.setTheme(theme);
  try {
    await updateConfig(configPath, { theme: theme.name });
  } catch (err) {
    return { ok: true, text: `Theme ${theme.name} (not saved: ${(err as Error).message})` };
  }
  return { ok: true, text: `Theme ${theme.name}; zot starts with it from now on.` };
}
