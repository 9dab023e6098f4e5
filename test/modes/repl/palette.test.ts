// The palette: colours as themes write them, drawn at each colour depth; the built-in themes and
// how one is chosen.
import { describe, expect, it } from "vitest";
import { colourDepth, nearest16, nearest256, parseColour, sgrOf, SLOTS } from "../../../lib/theme/palette.ts";
import { makeStyle } from "../../../lib/modes/repl/style.ts";
import { BUILTIN_THEMES, findTheme, startTheme } from "../../../lib/theme/themes.ts";

describe("colours", () => {
  it("reads #rrggbb, an xterm-256 index and ANSI names, and says what is wrong with anything else", () => {
    expect(parseColour("#00FF00")).toEqual({ kind: "rgb", r: 0, g: 255, b: 0 });
    expect(parseColour(208)).toEqual({ kind: "index", index: 208 });
    expect(parseColour("bright-black")).toEqual({ kind: "ansi", index: 8 });
    expect(parseColour("red")).toEqual({ kind: "ansi", index: 1 });
    expect(parseColour(256)).toBe("256 is not an xterm-256 index (0–255)");
    expect(parseColour("#0f0")).toMatch(/^"#0f0" is not a colour/);
    expect(parseColour("chartreuse")).toMatch(/is not a colour \(#rrggbb, 0–255, or an ANSI name/);
  });

  it("draws 24-bit colour in full where the terminal says truecolor, else the nearest of the 256, else of the 16", () => {
    const green = parseColour("#00ff00") as Exclude<ReturnType<typeof parseColour>, string>;
    expect(sgrOf(green, "truecolor")!.open).toBe("38;2;0;255;0");
    expect(sgrOf(green, "256")!.open).toBe("38;5;46");
    expect(sgrOf(green, "16")!.open).toBe("92");
    expect(nearest256([0, 95, 135])).toBe(24);
    expect(nearest16([200, 0, 0])).toBe(1);
    // An ANSI name is that ANSI colour at every depth.
    expect(sgrOf({ kind: "ansi", index: 3 }, "truecolor")!.open).toBe("33");
    expect(sgrOf({ kind: "index", index: 196 }, "16")!.open).toBe("91");
    // As a background: 48 and the 40s, ended by 49; dim is no background.
    expect(sgrOf(green, "truecolor", true)).toEqual({ open: "48;2;0;255;0", close: "49" });
    expect(sgrOf(green, "16", true)!.open).toBe("102");
    expect(sgrOf({ kind: "dim" }, "16", true)).toBeUndefined();
  });

  it("takes the depth from COLORTERM and TERM", () => {
    expect(colourDepth({ COLORTERM: "truecolor" })).toBe("truecolor");
    expect(colourDepth({ COLORTERM: "24bit", TERM: "xterm" })).toBe("truecolor");
    expect(colourDepth({ TERM: "xterm-256color" })).toBe("256");
    expect(colourDepth({ TERM: "xterm" })).toBe("16");
  });
});

describe("themes", () => {
  it("every built-in theme colours every slot", () => {
    for (const theme of BUILTIN_THEMES) expect(Object.keys(theme.colours).sort()).toEqual([...SLOTS].sort());
  });

  it("dark draws what zot always drew; light differs where a white background needs it", () => {
    const dark = makeStyle(true);
    expect(dark.paint("error", "x")).toBe("\x1b[31mx\x1b[39m");
    expect(dark.paint("muted", "x")).toBe("\x1b[2mx\x1b[22m");
    expect(dark.paint("heading", "x")).toBe("\x1b[36mx\x1b[39m");
    const light = makeStyle(true, { theme: findTheme("light")!, depth: "truecolor" });
    expect(light.paint("heading", "x")).toBe("\x1b[38;2;0;95;135mx\x1b[39m");
    dark.setTheme(findTheme("light")!);
    expect(dark.paint("heading", "x")).toBe("\x1b[36mx\x1b[39m"); // the nearest of the 16
    expect(dark.paint("error", "x")).toBe("\x1b[31mx\x1b[39m");
    expect(makeStyle(false, { theme: findTheme("light")! }).paint("heading", "x")).toBe("x");
  });

  it("is chosen by name, else by the background COLORFGBG reports, else dark; an unknown name warns", () => {
    expect(startTheme("light", {}).theme.name).toBe("light");
    expect(startTheme(undefined, { COLORFGBG: "0;15" }).theme.name).toBe("light");
    expect(startTheme(undefined, { COLORFGBG: "15;0" }).theme.name).toBe("dark");
    expect(startTheme(undefined, {}).theme.name).toBe("dark");
    expect(startTheme("solar", {})).toMatchObject({ theme: { name: "dark" }, warning: 'no theme "solar" (themes: dark, light); using dark' });
  });
});
