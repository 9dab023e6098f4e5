// Blanking secrets out of a session export, wherever a tool output or a prompt echoed them: each
// secret as it is, and base64 of it (standard and URL-safe, at any alignment in a longer
// encoding, as `base64` or an HTTP Basic header would print it). A short secret is blanked where it
// stands as a word of its own, so that a 7-character password goes while the same letters inside
// a longer word stay.
import { Buffer } from "node:buffer";

const REDACTED = "[redacted]";
/** From this length a secret is blanked wherever it appears; shorter ones only as whole words. */
const ANYWHERE = 8;
/** Shorter than this, a value is no secret worth blanking: it would blank ordinary words. */
const SHORTEST = 3;

/** The parts of base64 text that only `secret`'s bytes decide, at each of the three alignments. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const end = Math.floor(((offset + bytes.length) * 4) / 3);
    const form = encoded.slice(Math.ceil((offset * 4) / 3), end);
    if (form.length >= ANYWHERE) forms.push(form, form.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return forms;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A function that blanks every one of `secrets` (and their base64 forms) in a text. */
export function secretRedactor(secrets: readonly string[]): (text: string) => string {
  const anywhere = new Set<string>();
  const words = new Set<string>();
  for (const secret of secrets) {
    if (secret.length >= ANYWHERE) anywhere.add(secret);
    else if (secret.length >= SHORTEST) words.add(secret);
    for (const form of base64Forms(secret)) anywhere.add(form);
  }
  // Longest first, so a secret that contains another is blanked whole.
  const patterns = [...anywhere].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const wordPatterns = [...words].sort((a, b) => b.length - a.length).map((word) => `(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`);
  const all = [...patterns, ...wordPatterns];
  if (all.length === 0) return (text) => text;
  const pattern = new RegExp(all.join("|"), "g");
  return (text) => text.replace(pattern, REDACTED);
}

/** `value` with every string in it passed through `redact` (objects and arrays copied). */
export function redactStrings<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)])) as T;
  }
  return value;
}
