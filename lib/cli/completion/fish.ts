// `zot completion fish`: `complete` rules for fish, conditioned on the command words typed so
// far (__zot_path), with installed extension names asked of zot at completion time.
import { contexts, subcommandNames, type Context } from "./contexts.ts";
import type { CommandSpec, FlagSpec } from "./spec.ts";

/** A fish single-quoted string. */
const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function flagRule(ctx: Context, flag: FlagSpec): string {
  const parts = [`complete -c zot -n ${quote(`__zot_path_is ${quote(ctx.path)}`)}`];
  for (const name of flag.names) parts.push(name.startsWith("--") ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  const v = flag.value;
  if (v === "file") parts.push("-r -F");
  else if (v === "folder") parts.push("-r -a '(__fish_complete_directories)'");
  else if (v === "any") parts.push("-x");
  else if (v) parts.push(`-x -a ${quote(v.words.join(" "))}`);
  if (flag.description) parts.push(`-d ${quote(flag.description.replace(/\s+/g, " ").slice(0, 80))}`);
  return parts.join(" ");
}

function operandRules(ctx: Context): string[] {
  const when = (extra = "") => `-n ${quote(`__zot_path_is ${quote(ctx.path)}${extra}`)}`;
  const o = ctx.operands;
  if (typeof o === "object" && "commands" in o) {
    return o.commands.map((c) => `complete -c zot ${when("; and __zot_no_operand")} -a ${quote(c.name)} -d ${quote(c.description.slice(0, 80))}`);
  }
  if (typeof o === "object") return [`complete -c zot ${when("; and __zot_no_operand")} -a ${quote(o.words.join(" "))}`];
  if (o === "extensions") return [`complete -c zot ${when()} -a '(zot completion --list-extensions 2>/dev/null)'`];
  if (o === "file") return [`complete -c zot ${when()} -F`];
  if (o === "folder") return [`complete -c zot ${when()} -a '(__fish_complete_directories)'`];
  return [];
}

export function fishScript(spec: CommandSpec): string {
  const all = contexts(spec);
  const subs = all.filter((c) => subcommandNames(c).length)
    .map((c) => `    case ${quote(c.path)}\n      set subs ${subcommandNames(c).map(quote).join(" ")}`).join("\n");
  const valued = all.filter((c) => c.flags.some((f) => f.value))
    .map((c) => `    case ${quote(c.path)}\n      set valued ${c.flags.filter((f) => f.value).flatMap((f) => f.names).map(quote).join(" ")}`).join("\n");
  return `# zot completion for fish. Load it:  zot completion fish > ~/.config/fish/completions/zot.fish
complete -c zot -e
complete -c zot -f
# The command words typed so far ("ext install"), and how many operands follow them.
function __zot_walk
    set -l words (commandline -opc)
    set -e words[1]
    set -g __zot_path ''
    set -g __zot_operands 0
    set -l skip 0
    for w in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test "$w" = '--'
            set -g __zot_path '--'
            return
        end
        set -l valued
        switch $__zot_path
${valued.replace(/^/gm, "    ")}
        end
        if string match -q -- '-*' $w
            contains -- $w $valued; and set skip 1
            continue
        end
        set -l subs
        switch $__zot_path
${subs.replace(/^/gm, "    ")}
        end
        if test $__zot_operands -eq 0; and contains -- $w $subs
            set -g __zot_path (string trim -- "$__zot_path $w")
        else
            set -g __zot_operands (math $__zot_operands + 1)
        end
    end
end
function __zot_path_is
    __zot_walk
    test "$__zot_path" = "$argv[1]"
end
function __zot_no_operand
    test $__zot_operands -eq 0
end
${all.flatMap((ctx) => [...ctx.flags.map((f) => flagRule(ctx, f)), ...operandRules(ctx)]).join("\n")}
`;
}
