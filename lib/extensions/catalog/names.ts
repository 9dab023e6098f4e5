// The one rule for extension names, whatever brings the name in: a manifest found by discovery,
// an --ext folder, an install, `zot mcp add`, a server of a project's .mcp.json. A name becomes
// a folder (`extensions/<name>`, `extension-data/<name>`), a log file and a key of config.json
// and trust.json, so it must name exactly one entry of a folder and print as itself.

/** Long enough for any real name; `ext-<name>.log` stays far below file-name limits. */
export const EXTENSION_NAME_MAX = 100;

// C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text
// (bidirectional overrides and isolates, zero-width characters, the byte-order mark).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

/** Why `name` cannot be an extension's name, or undefined when it can. */
export function extensionNameProblem(name: string): string | undefined {
  if (name === "") return "must not be empty";
  if (name === "." || name === "..") return `must not be "${name}" (it would name the folder that holds it)`;
  if (name.startsWith(".")) return 'must not start with "." (discovery skips hidden folders)';
  if (/[/\\]/.test(name)) return "must not contain slashes";
  if (UNPRINTABLE.test(name)) return "must not contain control or invisible characters";
  if (name.length > EXTENSION_NAME_MAX) return `must be at most ${EXTENSION_NAME_MAX} characters`;
  return undefined;
}

/** Names that differ only by case collide on case-insensitive file systems and in the user's eyes. */
export const nameKey = (name: string): string => name.toLowerCase();
