// What the bridge writes to Telegram: answers cut into messages that fit the 4096-character
// limit, and one short line per tool call.

/** Telegram's limit on a message's text, counted in UTF-16 code units (as JS string length). */
export const MAX_MESSAGE = 4096;

/**
 * Splits `text` into pieces of at most `max` code units: at the last line break that fits
 * (the break itself is dropped), else at the last space, else anywhere but inside a surrogate
 * pair. Empty pieces (blank runs at a cut) are left out.
 */
export function splitMessage(text: string, max = MAX_MESSAGE): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf("\n", max);
    let skip = 1;
    if (cut <= 0) cut = rest.lastIndexOf(" ", max);
    if (cut <= 0) {
      cut = max;
      skip = 0;
      // Do not separate the two halves of an emoji or other astral character.
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--;
    }
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut + skip);
  }
  pieces.push(rest);
  return pieces.filter((p) => p.trim() !== "");
}

/** The argument that says most about a call of the usual tools; else the arguments as JSON. */
const KEY_ARGS = ["command", "path", "file_path", "pattern", "query", "url", "name"];

/** "🔧 bash: ls -la" on one line, at most `max` characters. */
export function toolLine(toolName: string, args: unknown, max = 120): string {
  let detail = "";
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const record = args as Record<string, unknown>;
    const key = KEY_ARGS.find((k) => typeof record[k] === "string");
    detail = key ? String(record[key]) : Object.keys(record).length > 0 ? JSON.stringify(record) : "";
  }
  const line = `🔧 ${toolName}${detail ? `: ${detail}` : ""}`.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
