// /theme in the REPL: without a name a picker of the themes, with one a switch that takes effect
// at once (the live area and everything drawn after it) and is saved for the next start.
import { updateConfig } from "../../config.ts";
import { Picker } from "./picker.ts";
import type { OpenPicker } from "./pickers.ts";
import type { Style } from "./style.ts";
import { BUILTIN_THEMES, findTheme } from "./themes.ts";

export function themePicker(style: Style): OpenPicker {
  const current = style.theme.name;
  const items = BUILTIN_THEMES.map((t) => ({ value: t.name, label: t.name, ...(t.name === current ? { detail: "current" } : {}) }));
  return { widget: new Picker("Theme", items, current), command: "/theme" };
}

/** Switches to theme `name` and saves the choice; the line that says so, or why not. */
export async function switchTheme(name: string, style: Style, configPath: string): Promise<{ ok: boolean; text: string }> {
  const theme = findTheme(name);
  if (!theme) return { ok: false, text: `no theme "${name}" (themes: ${BUILTIN_THEMES.map((t) => t.name).join(", ")})` };
  style.setTheme(theme);
  try {
    await updateConfig(configPath, { theme: theme.name });
  } catch (err) {
    return { ok: true, text: `Theme ${theme.name} (not saved: ${(err as Error).message})` };
  }
  return { ok: true, text: `Theme ${theme.name}; zot starts with it from now on.` };
}
