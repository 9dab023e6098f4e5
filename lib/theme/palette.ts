// The REPL's palette: every coloured thing takes its colour from a slot, a theme gives the slots
// colours, and a colour is written at the depth the terminal shows (24-bit, the xterm 256, or
// the 16 ANSI colours, each the nearest to what the theme asked for).

export const SLOTS = [
  "text", "muted", "accent", "user", "assistant", "tool", "tool_output", "success", "warning", "error", "heading", "code",
  "code_background", "link", "quote", "diff_added", "diff_removed", "diff_context", "panel_border", "panel_title", "selection",
  "spinner", "status",
  // Code fences, by what highlight.js says a span is.
  "syntax_keyword", "syntax_type", "syntax_number", "syntax_string", "syntax_variable", "syntax_comment", "syntax_function",
] as const;
export type Slot = (typeof SLOTS)[number];

/** A colour as a theme names it; `dim` is the terminal's faint text rather than a colour. */
export type Colour =
  | { kind: "ansi"; index: number } // 0–15: black … white, then bright-black … bright-white
  | { kind: "index"; index: number } // an xterm-256 colour
  | { kind: "rgb"; r: number; g: number; b: number }
  | { kind: "default" }
  | { kind: "dim" };

export type Depth = "truecolor" | "256" | "16";

const ANSI_NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

/** `#rrggbb`, an xterm-256 index (0–255), an ANSI name (`red`, `bright-black` …), `default` or `dim`; else why not. */
export function parseColour(value: unknown): Colour | string {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0 && value <= 255 ? { kind: "index", index: value } : `${value} is not an xterm-256 index (0–255)`;
  }
  if (typeof value !== "string") return `${JSON.stringify(value)} is not a colour`;
  const text = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(text);
  if (hex) return { kind: "rgb", r: parseInt(hex[1]!, 16), g: parseInt(hex[2]!, 16), b: parseInt(hex[3]!, 16) };
  if (/^\d+$/.test(text)) return parseColour(Number(text));
  if (text === "default") return { kind: "default" };
  if (text === "dim") return { kind: "dim" };
  const bright = text.startsWith("bright-");
  const base = ANSI_NAMES.indexOf(bright ? text.slice("bright-".length) : text);
  if (base >= 0) return { kind: "ansi", index: base + (bright ? 8 : 0) };
  return `"${value}" is not a colour (#rrggbb, 0–255, or an ANSI name such as red or bright-black)`;
}

/** The colour depth the terminal says it shows. */
export function colourDepth(env: Record<string, string | undefined>): Depth {
  const colorterm = (env.COLORTERM ?? "").toLowerCase();
  if (colorterm === "truecolor" || colorterm === "24bit") return "truecolor";
  if (/256/.test(env.TERM ?? "")) return "256";
  return "16";
}

// The 16 ANSI colours as xterm draws them, for finding the nearest.
const ANSI_RGB: Array<[number, number, number]> = [
  [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
  [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

function rgbOfIndex(index: number): [number, number, number] {
  if (index < 16) return ANSI_RGB[index]!;
  if (index >= 232) {
    const v = 8 + (index - 232) * 10;
    return [v, v, v];
  }
  const i = index - 16;
  return [CUBE[Math.floor(i / 36)]!, CUBE[Math.floor(i / 6) % 6]!, CUBE[i % 6]!];
}

const distance = (a: [number, number, number], b: [number, number, number]) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

/** The xterm-256 colour nearest to `rgb` (the 6×6×6 cube and the grey ramp). */
export function nearest256(rgb: [number, number, number]): number {
  let best = 16;
  for (let i = 16; i < 256; i++) if (distance(rgbOfIndex(i), rgb) < distance(rgbOfIndex(best), rgb)) best = i;
  return best;
}

/** The ANSI colour (0–15) nearest to `rgb`. */
export function nearest16(rgb: [number, number, number]): number {
  let best = 0;
  for (let i = 1; i < 16; i++) if (distance(ANSI_RGB[i]!, rgb) < distance(ANSI_RGB[best]!, rgb)) best = i;
  return best;
}

/**
 * The SGR parameters that draw `colour` at `depth` as the text's colour (or, with `background`,
 * behind it), and the ones that end it.
 */
export function sgrOf(colour: Colour, depth: Depth, background = false): { open: string; close: string } | undefined {
  const [base, bright, extended, close] = background ? [40, 100, "48", "49"] : [30, 90, "38", "39"];
  const ansi = (index: number) => ({ open: String(index < 8 ? base + index : bright + index - 8), close });
  switch (colour.kind) {
    case "default":
      return undefined;
    case "dim":
      return background ? undefined : { open: "2", close: "22" };
    case "ansi":
      return ansi(colour.index);
    case "index":
      if (depth === "16") return ansi(colour.index < 16 ? colour.index : nearest16(rgbOfIndex(colour.index)));
      return { open: `${extended};5;${colour.index}`, close };
    case "rgb": {
      const rgb: [number, number, number] = [colour.r, colour.g, colour.b];
      if (depth === "truecolor") return { open: `${extended};2;${colour.r};${colour.g};${colour.b}`, close };
      if (depth === "256") return { open: `${extended};5;${nearest256(rgb)}`, close };
      return ansi(nearest16(rgb));
    }
  }
}
