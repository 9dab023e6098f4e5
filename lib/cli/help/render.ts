// A command's help screen, laid out by zot rather than citty: citty's renderer right-aligns the
// flags and pads every row to the longest description, so a long one pushes the whole table past
// the terminal's edge. The flags stay declared once, as citty ArgsDefs; this only draws them.
import type { ArgsDef } from "citty";
import { makeStyle } from "../../modes/repl/style.ts";
import { paragraphs, table, wrap } from "./wrap.ts";

export interface HelpSection {
  title: string;
  /** Either rows of a two-column table, or free text (paragraphs, `  key  text` rows). */
  rows?: Array<[string, string]>;
  text?: string;
}

export interface HelpSpec {
  /** The full command name: "zot", "zot ext install". */
  name: string;
  description?: string;
  args?: ArgsDef;
  /** Usage lines after USAGE; by default built from the args. */
  usage?: string[];
  sections?: HelpSection[];
  /** Shown last, as free text (a pointer to more help). */
  footer?: string;
}

interface ArgLike {
  type?: string;
  alias?: string | string[];
  valueHint?: string;
  description?: string;
  required?: boolean;
}

const entries = (args: ArgsDef | undefined) => Object.entries(args ?? {}) as Array<[string, ArgLike]>;

function positionalName(name: string, arg: ArgLike): string {
  const upper = name.toUpperCase();
  return arg.required === false ? `[${upper}]` : `<${upper}>`;
}

/** `USAGE zot ext install [OPTIONS] <SOURCE>`'s words after the name. */
function defaultUsage(spec: HelpSpec): string {
  const args = entries(spec.args);
  const words = [spec.name];
  if (args.some(([, a]) => a.type !== "positional")) words.push("[OPTIONS]");
  for (const [name, arg] of args) if (arg.type === "positional") words.push(positionalName(name, arg));
  return words.join(" ");
}

/** `-e, --ext <path>` / `    --json`: short aliases first, long flags aligned under each other. */
export function flagLabel(name: string, arg: ArgLike, anyShort: boolean): string {
  const aliases = arg.alias === undefined ? [] : Array.isArray(arg.alias) ? arg.alias : [arg.alias];
  const short = aliases.filter((a) => a.length === 1).map((a) => `-${a}`);
  const long = [name, ...aliases.filter((a) => a.length > 1)].map((a) => `--${a}`);
  const value = arg.type === "string" || arg.type === "enum" ? ` <${arg.valueHint ?? name}>` : "";
  const flags = [...short, ...long].join(", ");
  return `${short.length === 0 && anyShort ? "    " : ""}${flags}${value}`;
}

export function optionRows(args: ArgsDef | undefined): Array<[string, string]> {
  const flags = entries(args).filter(([, a]) => a.type !== "positional");
  const anyShort = flags.some(([, a]) => (Array.isArray(a.alias) ? a.alias : [a.alias]).some((x) => x?.length === 1));
  return flags.map(([name, arg]) => [flagLabel(name, arg, anyShort), arg.description ?? ""]);
}

/**
 * One capitalisation for every table of every help: descriptions start in lower case, as the
 * root's do (`Print a JSON array` reads `print a JSON array`; `JSON`, `MCP` and `ID` stay).
 */
function lowerFirst(text: string): string {
  if (!/^[A-Z][a-z]+\b/.test(text) || PROPER_NOUN.test(text)) return text;
  return `${text[0]!.toLowerCase()}${text.slice(1)}`;
}

/** Names that keep their capital at the start of a description. */
export const PROPER_NOUN = /^(Python|Node|Bun|Deno|TypeScript|JavaScript|Claude|Anthropic|OpenAI|Gemini|Ollama|Zed|Go|GitHub|Git|Linux|Windows)\b/;

/** The help text, ending in a newline; coloured (bold headings, cyan labels) when `color`. */
export function renderHelp(spec: HelpSpec, width: number, color: boolean): string {
  const style = makeStyle(color);
  const out: string[] = [];
  const heading = (title: string) => out.push("", style.bold(title));
  const rowsOf = (rows: Array<[string, string]>) => out.push(...table(rows.map(([label, text]) => [label, lowerFirst(text)]), width, 2,
    (t) => style.paint("accent", t)));
  if (spec.description) out.push(...paragraphs(spec.description, width));
  const usage = spec.usage ?? [defaultUsage(spec)];
  if (out.length) out.push("");
  // USAGE and the first line share a row, as citty has them (scripts and tests grep for it).
  usage.forEach((line, i) => {
    const [first, ...more] = wrap(line, width, i === 0 ? "USAGE " : "      ", "        ");
    out.push(i === 0 ? `${style.bold("USAGE")}${first!.slice(5)}` : first!, ...more);
  });
  const positionals = entries(spec.args).filter(([, a]) => a.type === "positional");
  if (positionals.length) {
    heading("ARGUMENTS");
    rowsOf(positionals.map(([name, arg]) => [name.toUpperCase(), arg.description ?? ""]));
  }
  const options = optionRows(spec.args);
  if (options.length) {
    heading("OPTIONS");
    rowsOf(options);
  }
  for (const section of spec.sections ?? []) {
    heading(section.title);
    if (section.rows) rowsOf(section.rows);
    if (section.text) out.push(...paragraphs(section.text, width));
  }
  if (spec.footer) out.push("", ...paragraphs(spec.footer, width));
  return `${out.join("\n")}\n`;
}
