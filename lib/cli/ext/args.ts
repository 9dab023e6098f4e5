// Strict argument checking for the `zot ext` subcommands. citty accepts unknown flags and extra
// positionals silently, so every argv is checked against the command's declared args first.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ArgsDef } from "citty";
import { zotPaths } from "../../paths.ts";
import { extensionRoots, type ExtensionRoots } from "../../extensions/install/installed.ts";

import { UsageError } from "../../errors.ts";

export { UsageError };

/** `--cwd PATH`, accepted by every subcommand: the project root for project-scope operations. */
export const cwdArg = {
  cwd: { type: "string", valueHint: "path", description: "Project folder (default: the current directory)" },
} as const satisfies ArgsDef;

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
 * a missing required positional, or a positional nobody declared. `--` ends flags.
 */
export function checkArgs(argv: string[], def: ArgsDef): void {
  const { long, short, positionals } = flagTable(def);
  const given: string[] = [];
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
  if (given.length > positionals.length) throw new UsageError(`unexpected argument "${given[positionals.length]}"`);
  for (const name of positionals.slice(given.length)) {
    const arg = def[name];
    if (arg.required !== false && arg.default === undefined) throw new UsageError(`missing <${name}>`);
  }
}

/** `--timeout-ms`: a whole number of milliseconds, at least 1; `fallback` when absent. */
export function parseTimeoutMs(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`--timeout-ms expects a whole number of milliseconds (at least 1), got "${String(value)}"`);
  }
  return Number(value);
}

/** The project folder from `--cwd` (resolved against the process directory) or the process directory. */
export function projectDir(cwd: unknown): string {
  if (typeof cwd !== "string" || cwd === "") return process.cwd();
  const dir = resolve(cwd);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--cwd ${cwd}: no such folder`);
  return dir;
}

/** Project and global extension roots for this invocation. */
export function rootsFor(cwd: unknown): ExtensionRoots {
  return extensionRoots(projectDir(cwd), zotPaths());
}
