// Strict argument checking for citty commands. citty accepts unknown flags and extra positionals
// silently and keeps only the last value of a repeated flag, so argv is checked against the
// command's declared args first, and repeatable flags are collected here.
import { type ArgsDef, parseArgs } from "citty";
import { UsageError } from "../errors.ts";

export { UsageError };

interface FlagInfo {
  name: string;
  takesValue: boolean;
}

function flagTable(def: ArgsDef): { long: Map<string, FlagInfo>; short: Map<string, FlagInfo>; positionals: string[] } {
  const long = new Map<string, FlagInfo>();
  const short = new Map<string, FlagInfo>();
  const positionals: string[] = [];
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") {
      positionals.push(name);
      continue;
    }
    const info = { name, takesValue: arg.type === "string" || arg.type === "enum" };
    long.set(name, info);
    const aliases = "alias" in arg && arg.alias ? (Array.isArray(arg.alias) ? arg.alias : [arg.alias]) : [];
    for (const alias of aliases) (alias.length === 1 ? short : long).set(alias, info);
  }
  return { long, short, positionals };
}

/**
 * Throws UsageError for an unknown flag, a flag missing its value, a value given to a boolean,
 * a missing required positional, or a positional nobody declared (`variadic`: the last one takes
 * any number). `--` ends flags. Returns the declared names of the flags that occur.
 */
export function checkArgs(argv: string[], def: ArgsDef, options: { variadic?: boolean } = {}): Set<string> {
  const { long, short, positionals } = flagTable(def);
  const given: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      given.push(...argv.slice(i + 1));
      break;
    }
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      const name = token.slice(2, eq < 0 ? undefined : eq);
      const negated = name.startsWith("no-") ? long.get(name.slice(3)) : undefined;
      const info = long.get(name) ?? (negated && !negated.takesValue ? negated : undefined);
      if (!info) throw new UsageError(`unknown option --${name}`);
      seen.add(info.name);
      if (!info.takesValue) {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        continue;
      }
      if (eq >= 0) continue;
      if (i + 1 >= argv.length || argv[i + 1].startsWith("-")) throw new UsageError(`--${name} needs a value`);
      i++;
    } else if (token.startsWith("-") && token.length > 1) {
      const info = short.get(token[1]);
      if (!info) throw new UsageError(`unknown option ${token.slice(0, 2)}`);
      seen.add(info.name);
      const rest = token.slice(2);
      if (!info.takesValue) {
        if (rest) throw new UsageError(`unknown option ${token} (give short flags separately)`);
        continue;
      }
      if (rest) continue;
      if (i + 1 >= argv.length || argv[i + 1].startsWith("-")) throw new UsageError(`-${token[1]} needs a value`);
      i++;
    } else {
      given.push(token);
    }
  }
  if (given.length > positionals.length && !(options.variadic && positionals.length > 0)) {
    throw new UsageError(`unexpected argument "${given[positionals.length]}"`);
  }
  for (const name of positionals.slice(given.length)) {
    const arg = def[name];
    if (arg.required !== false && arg.default === undefined) throw new UsageError(`missing <${name}>`);
  }
  return seen;
}

/**
 * citty's parse of a checked argv, as a plain object (citty's result is a proxy that
 * case-converts every name looked up and not found). citty is given only the flags in `present`,
 * the positionals and the flags with a default: it runs every name it is given through case
 * conversions (milliseconds for a dozen, at every start), and an absent flag changes nothing.
 */
export function parseChecked(argv: string[], def: ArgsDef, present: Iterable<string>): Record<string, unknown> & { _: string[] } {
  const wanted = new Set(present);
  const defs = Object.fromEntries(Object.entries(def).filter(([name, arg]) =>
    wanted.has(name) || arg.type === "positional" || arg.default !== undefined));
  return { ...parseArgs(argv, defs) } as Record<string, unknown> & { _: string[] };
}

/**
 * Takes the values of the repeatable string flags `names` out of an argv that passed checkArgs,
 * in order, in every form checkArgs accepts (`--ext x`, `--ext=x`, `-e x`, `-ex`, `-e=x`).
 * `rest` is the argv without them, for citty; what follows `--` is left alone.
 */
export function takeRepeated(argv: string[], def: ArgsDef, names: string[]): { values: Record<string, string[]>; rest: string[] } {
  const owner = new Map<string, string>();
  for (const name of names) {
    const arg = def[name];
    if (!arg || arg.type !== "string") throw new Error(`takeRepeated: ${name} is not a string flag`);
    owner.set(`--${name}`, name);
    for (const alias of arg.alias ? (Array.isArray(arg.alias) ? arg.alias : [arg.alias]) : []) owner.set(alias.length === 1 ? `-${alias}` : `--${alias}`, name);
  }
  const values: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const isLong = token.startsWith("--");
    const eq = token.indexOf("=");
    const flag = isLong ? (eq < 0 ? token : token.slice(0, eq)) : token.slice(0, 2);
    const name = token.startsWith("-") ? owner.get(flag) : undefined;
    if (name === undefined) {
      rest.push(token);
      continue;
    }
    const attached = isLong ? (eq < 0 ? undefined : token.slice(eq + 1)) : token.length > 2 ? token.slice(token[2] === "=" ? 3 : 2) : undefined;
    const value = attached ?? argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    values[name]!.push(value);
  }
  return { values, rest };
}
