// Colours for the REPL, off when NO_COLOR is set (unless FORCE_COLOR) or stdout is not a TTY.
// Every colour comes from the palette's slots, drawn from the current theme at the terminal's
// depth; the theme can change while zot runs (/theme).
import { sgrOf, type Depth, type Slot } from "../../theme/palette.ts";
import { BUILTIN_THEMES, type Theme } from "../../theme/themes.ts";

export interface Style {
  /** Text in a palette slot's colour. */
  paint(slot: Slot, text: string): string;
  /** Text on a palette slot's colour (the slot as a background). */
  paintBackground(slot: Slot, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  /** A note's colour by its level (error, warn, success, anything else: accent). */
  level(level: string, text: string): string;
  readonly theme: Theme;
  setTheme(theme: Theme): void;
}

export function colorEnabled(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY;
}

export function makeStyle(enabled: boolean, options: { theme?: Theme; depth?: Depth } = {}): Style {
  let theme = options.theme ?? BUILTIN_THEMES[0]!;
  const depth = options.depth ?? "16";
  const wrap = (open: string, close: string, text: string) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  const paint = (slot: Slot, text: string) => {
    const sgr = sgrOf(theme.colours[slot], depth);
    return sgr ? wrap(sgr.open, sgr.close, text) : text;
  };
  const style: Style = {
    paint,
    paintBackground(slot, text) {
      const sgr = sgrOf(theme.colours[slot], depth, true);
      return sgr ? wrap(sgr.open, sgr.close, text) : text;
    },
    bold: (text) => wrap("1", "22", text),
    italic: (text) => wrap("3", "23", text),
    level(level, text) {
      switch (level) {
        case "error":
          return paint("error", text);
        case "warn":
          return paint("warning", text);
        case "success":
          return paint("success", text);
        default:
          return paint("accent", text);
      }
    },
    get theme() {
      return theme;
    },
    setTheme(next) {
      theme = next;
    },
  };
  return style;
}
