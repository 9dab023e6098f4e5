// Text that came from an extension or a manifest (names, versions, descriptions, notes, panel
// lines, errors it caused), made safe for a terminal: escape sequences are removed whole, and so
// are the other control characters and the invisible ones that reorder text (bidirectional
// overrides and isolates), so nothing an extension writes can move the cursor, rewrite what zot
// printed, set the window title or hide words. Tabs and newlines are kept.

// CSI (ESC [ … final), OSC (ESC ] … BEL or ST), other ESC-introduced strings (DCS, SOS, PM,
// APC up to ST), two-character ESC sequences, and the 8-bit CSI/OSC forms.
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[ -~]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*[\u0007\u009c]?/g;
// C0 but tab and newline, DEL, C1, and the invisible format characters that reorder or hide text.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` without escape sequences and control characters; tabs and newlines stay. */
export function printable(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, "");
}

/** One line of `text` for a table cell or a label: printable, with tabs and newlines as spaces. */
export function printableLine(text: string): string {
  return printable(text).replace(/[\t\n]+/g, " ");
}
