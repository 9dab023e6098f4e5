// The root command's flags parsed the way citty parses them (last value wins, `--no-X` sets X to
// false, a string flag takes the next word whatever it looks like, `--flag=value`), without
// citty's parser: that one loads node:util's parseArgs, which costs a one-shot run more time
// and memory than the rest of its argument handling. Only flags that are declared reach here
// (root-args refuses the rest first).
import type { ArgsDef } from "citty";

export type ParsedFlags = Record<string, unknown> & { _: string[] };

export function parseFlags(argv: string[], defs: ArgsDef): ParsedFlags {
  const out: ParsedFlags = { _: [] };
  const byShort = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    const alias = (def as { alias?: string | string[] }).alias;
    for (const a of typeof alias === "string" ? [alias] : alias ?? []) byShort.set(a, name);
  }
  const negated: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      out._.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--no-")) {
      negated.push(arg.slice(5));
      continue;
    }
    const long = arg.startsWith("--");
    if (!long && !(arg.startsWith("-") && arg.length > 1)) {
      out._.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const key = long ? arg.slice(2, eq > 0 ? eq : undefined) : arg[1]!;
    const name = long ? key : byShort.get(key) ?? key;
    const inline = long && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (defs[name]?.type === "boolean" || !long) {
      out[name] = inline === undefined ? true : inline !== "false";
    } else {
      // A string flag with no value left is "" (citty's coercion of a bare string flag).
      out[name] = inline ?? (i + 1 < argv.length ? argv[++i]! : "");
    }
  }
  for (const name of negated) out[name] = false;
  return out;
}
