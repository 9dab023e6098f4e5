// Messages about a URL or header whose `${VAR}`s zot expanded to connect: a connection error can
// quote the expanded URL (or a host or path made of a secret), so every expanded value is shown
// as its `${VAR}` again before the message reaches a log, an ext_error or doctor.
import { VARIABLE } from "./dot-mcp-json.ts";

/** `message` with the value each `${VAR}` of `templates` expands to from `env` shown as `${VAR}`. */
export function unexpand(message: string, templates: readonly string[], env: Record<string, string | undefined>): string {
  const values = new Map<string, string>();
  for (const template of templates) {
    for (const match of template.matchAll(VARIABLE)) {
      const name = match[1]!;
      const value = env[name];
      // A value this short is no secret, and showing it as its name everywhere would garble the message.
      if (value && value.length >= 3) values.set(value, `\${${name}}`);
    }
  }
  let shown = message;
  // Longest first, so a value that contains another is shown whole.
  for (const [value, name] of [...values].sort(([a], [b]) => b.length - a.length)) {
    shown = shown.split(value).join(name);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) shown = shown.split(encoded).join(name);
  }
  return shown;
}

/** Every string in `value` (a manifest's fields, an .mcp.json entry): the templates `unexpand` looks in. */
export function templatesIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(templatesIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(templatesIn);
  return [];
}
