// The completion spec flattened into contexts ("", "ext", "ext install", …): what each shell
// script looks up by the command words typed so far.
import type { CommandSpec, FlagSpec } from "./spec.ts";

export interface Context {
  /** The command words: "" for zot itself, "ext install" for `zot ext install`. */
  path: string;
  flags: FlagSpec[];
  operands: CommandSpec["operands"];
}

export function contexts(root: CommandSpec): Context[] {
  const out: Context[] = [];
  const visit = (command: CommandSpec, path: string) => {
    out.push({ path, flags: command.flags, operands: command.operands });
    if (typeof command.operands === "object" && "commands" in command.operands) {
      for (const sub of command.operands.commands) visit(sub, path ? `${path} ${sub.name}` : sub.name);
    }
  };
  visit(root, "");
  return out;
}

/** Words that are safe unquoted in every shell script: names, flags, model ids. */
export function shellWords(words: string[]): string {
  return words.filter((w) => /^[\w.:@+,=/-]+$/.test(w)).join(" ");
}

export const subcommandNames = (ctx: Context): string[] =>
  typeof ctx.operands === "object" && "commands" in ctx.operands ? ctx.operands.commands.map((c) => c.name) : [];
