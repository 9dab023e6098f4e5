// Keypresses from node:readline's emitKeypressEvents, normalized once: the REPL's editing keys
// and the extension protocol's panel_key names (up, down, left, right, enter, esc, tab, pageup,
// pagedown, home, end, backspace, delete, rune + text).

/** What readline's `keypress` event passes as its second argument. */
export interface RawKey {
  sequence?: string;
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

export type PanelKeyName =
  | "up" | "down" | "left" | "right" | "enter" | "esc" | "tab" | "pageup" | "pagedown"
  | "home" | "end" | "backspace" | "delete" | "rune";

export type KeyName =
  | PanelKeyName | "ctrl-c" | "ctrl-d" | "ctrl-a" | "ctrl-e" | "ctrl-u" | "ctrl-k" | "ctrl-w" | "ctrl-l"
  /** Alt+Enter or Ctrl+J: a line break inside the prompt. */
  | "newline"
  /** Bracketed paste markers (`ESC[200~` … `ESC[201~`). */
  | "paste-start" | "paste-end"
  /** A whole bracketed paste, collected by PasteCollector; `text` keeps its newlines. */
  | "paste"
  | "other";

export interface Key {
  name: KeyName;
  /** The typed character(s) for `rune`; the pasted text for `paste`. */
  text?: string;
}

const NAMED: Record<string, PanelKeyName> = {
  up: "up", down: "down", left: "left", right: "right",
  return: "enter", enter: "enter", escape: "esc", tab: "tab",
  pageup: "pageup", pagedown: "pagedown", home: "home", end: "end",
  backspace: "backspace", delete: "delete",
};

const CTRL: Record<string, KeyName> = {
  c: "ctrl-c", d: "ctrl-d", a: "ctrl-a", e: "ctrl-e", u: "ctrl-u", k: "ctrl-k", w: "ctrl-w", l: "ctrl-l",
  // Terminals send Ctrl+H for backspace on some setups.
  h: "backspace",
};

/** Maps one readline keypress to a normalized key. */
export function normalizeKey(str: string | undefined, raw: RawKey | undefined): Key {
  const key = raw ?? {};
  if (key.name === "paste-start" || key.name === "paste-end") return { name: key.name };
  // Enter sends CR in raw mode; LF comes from Ctrl+J, and ESC CR from Alt+Enter.
  if ((key.name === "return" && key.meta) || (key.name === "enter" && !key.ctrl && !key.meta)) return { name: "newline" };
  if (key.ctrl && key.name && CTRL[key.name]) return { name: CTRL[key.name]! };
  if (key.name && NAMED[key.name] && !key.ctrl) {
    // Shift+Tab and Alt+Enter still count as their base key for panels.
    return { name: NAMED[key.name]! };
  }
  const text = str ?? key.sequence ?? "";
  if (!key.ctrl && !key.meta && text !== "" && isPrintable(text)) return { name: "rune", text };
  return { name: "other" };
}

function isPrintable(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 32 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) return false;
  }
  return true;
}

/** The panel_key frame fields for a key, or undefined for keys panels do not receive. */
export function panelKeyOf(key: Key): { key: PanelKeyName; text?: string } | undefined {
  switch (key.name) {
    case "rune":
      return { key: "rune", text: key.text ?? "" };
    case "newline":
      return { key: "enter" };
    case "up": case "down": case "left": case "right": case "enter": case "esc": case "tab":
    case "pageup": case "pagedown": case "home": case "end": case "backspace": case "delete":
      return { key: key.name };
    default:
      return undefined;
  }
}
