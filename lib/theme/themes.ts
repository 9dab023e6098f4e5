// The built-in themes and how one is chosen: `--theme`, then ZOT_THEME, then config.json's
// `theme`, else the terminal's background (its answer to an OSC 11 query, else COLORFGBG), else dark. `dark` keeps the
// colours zot always had; `light` is readable on a white background.
import { parseColour, SLOTS, type Colour, type Slot } from "./palette.ts";

export interface Theme {
  name: string;
  colours: Record<Slot, Colour>;
}

type Table = Record<Slot, string | number>;

const DARK: Table = {
  text: "default", muted: "dim", accent: "cyan", user: "default", assistant: "default", tool: "default", tool_output: "dim",
  success: "green", warning: "yellow", error: "red", heading: "cyan", code: "cyan", code_background: "default", link: "cyan",
  quote: "dim", diff_added: "green", diff_removed: "red", diff_context: "dim", panel_border: "cyan", panel_title: "cyan",
  selection: "cyan", spinner: "dim", status: "dim",
  syntax_keyword: "magenta", syntax_type: "cyan", syntax_number: "yellow", syntax_string: "green", syntax_variable: "red",
  syntax_comment: "dim", syntax_function: "blue",
};

const LIGHT: Table = {
  text: "default", muted: 244, accent: "#005fd7", user: "default", assistant: "default", tool: "default", tool_output: 242,
  success: "#008700", warning: "#af5f00", error: "#d70000", heading: "#005f87", code: "#875f00", code_background: "default",
  link: "#005fd7", quote: 242, diff_added: "#008700", diff_removed: "#d70000", diff_context: 244, panel_border: "#005fd7",
  panel_title: "#005f87", selection: "#005fd7", spinner: "#005fd7", status: 244,
  syntax_keyword: "#af00af", syntax_type: "#005f87", syntax_number: "#af5f00", syntax_string: "#008700", syntax_variable: "#d70000",
  syntax_comment: 244, syntax_function: "#005fd7",
};

function fromTable(name: string, table: Table): Theme {
  const colours = {} as Record<Slot, Colour>;
  for (const slot of SLOTS) {
    const colour = parseColour(table[slot]);
    if (typeof colour === "string") throw new Error(`built-in theme ${name}: ${slot}: ${colour}`);
    colours[slot] = colour;
  }
  return { name, colours };
}

export const BUILTIN_THEMES: readonly Theme[] = [fromTable("dark", DARK), fromTable("light", LIGHT)];

export function findTheme(name: string, themes: readonly Theme[] = BUILTIN_THEMES): Theme | undefined {
  return themes.find((t) => t.name === name);
}

/** dark or light from COLORFGBG ("fg;bg", bg 7 or 9–15 is a light background); undefined when it does not say. */
export function backgroundTheme(env: Record<string, string | undefined>): "dark" | "light" | undefined {
  const bg = Number(env.COLORFGBG?.split(";").at(-1));
  if (!Number.isInteger(bg)) return undefined;
  return bg === 7 || (bg >= 9 && bg <= 15) ? "light" : "dark";
}

/**
 * The theme to start with and, when the named one does not exist, a warning naming the ones that do.
 * `chosen`: `--theme`, else ZOT_THEME, else config.json's `theme`.
 */
export function startTheme(chosen: string | undefined, env: Record<string, string | undefined>, themes: readonly Theme[] = BUILTIN_THEMES,
  background?: "dark" | "light"): { theme: Theme; warning?: string } {
  const fallback = findTheme(background ?? backgroundTheme(env) ?? "dark", themes) ?? BUILTIN_THEMES[0]!;
  if (chosen === undefined || chosen === "") return { theme: fallback };
  const found = findTheme(chosen, themes);
  if (found) return { theme: found };
  return { theme: fallback, warning: `no theme "${chosen}" (themes: ${themes.map((t) => t.name).join(", ")}); using ${fallback.name}` };
}
