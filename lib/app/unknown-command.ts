// A line that is meant as a command but names none: `/bogus`, a typo of `/compact`, or the command
// of an extension that is not running. It is answered here instead of costing a model call; `//`
// at the start (or `zot -- "/text"`) sends the text as it is.
import type { Runtime } from "./runtime-surface.ts";
import { BUILTIN_COMMANDS } from "./builtin-commands.ts";

/** `/word` as the first word, with no other slash in it: `/tmp/x is full` is a prompt about a path. */
const COMMAND_WORD = /^\/([A-Za-z0-9][\w.-]*)(?:\s|$)/;

/** A line starting with `//` is literal text whose first slash is dropped. */
export function literalText(line: string): string | undefined {
  return line.trimStart().startsWith("//") ? line.trimStart().slice(1) : undefined;
}

/**
 * What to tell the user when `line` looks like a command that no built-in or running extension
 * has (the nearest names, and the extension of that name that is not running); undefined when it
 * is a prompt or a command that exists.
 */
export function unknownCommand(rt: Pick<Runtime, "commands" | "extensionReports">, line: string, interactive: boolean): string | undefined {
  if (literalText(line) !== undefined) return undefined;
  const word = COMMAND_WORD.exec(line.trim())?.[1];
  if (!word) return undefined;
  const name = word.toLowerCase();
  // Interactive-only built-ins count too: running one outside the REPL says what to do instead.
  const known = [...BUILTIN_COMMANDS.map((c) => c.name), ...rt.commands().map((c) => c.name)];
  if (known.some((k) => k.toLowerCase() === name)) return undefined;
  const parts = [`unknown command /${word}`];
  const idle = rt.extensionReports().find((r) => r.name.toLowerCase() === name && r.status !== "ok");
  if (idle) parts.push(`the extension ${idle.name} is not running (${idle.status}${idle.warnings[0] ?? idle.errors[0] ? `: ${idle.warnings[0] ?? idle.errors[0]}` : ""})`);
  const near = nearest(name, known);
  if (near.length > 0) parts.push(`did you mean ${near.map((n) => `/${n}`).join(", ")}?`);
  parts.push(`start the line with // to send it as text${interactive ? "" : " (or pass it after --)"}`);
  return parts.join("; ");
}

/** Up to three names within two edits of `name`, or starting with it, closest first. */
function nearest(name: string, names: string[]): string[] {
  return names
    .map((n) => ({ n, d: n.toLowerCase().startsWith(name) ? 0 : distance(name, n.toLowerCase()) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map((x) => x.n);
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
