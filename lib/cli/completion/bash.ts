// `zot completion bash`: a completion function for bash (zsh loads the same one through
// bashcompinit, see zsh.ts). Flags, flag values, subcommands and installed extension names,
// which it asks the zot being completed for (`zot completion --list-extensions`).
import { contexts, shellWords, subcommandNames, type Context } from "./contexts.ts";
import type { CommandSpec } from "./spec.ts";

const names = (ctx: Context) => ctx.flags.flatMap((f) => f.names);
const valued = (ctx: Context) => ctx.flags.filter((f) => f.value).flatMap((f) => f.names);

function valueCases(all: Context[]): string {
  const lines: string[] = [];
  for (const ctx of all) {
    for (const flag of ctx.flags) {
      if (!flag.value || flag.value === "any") continue;
      const action = flag.value === "file" ? 'COMPREPLY=($(compgen -f -- "$cur"))'
        : flag.value === "folder" ? 'COMPREPLY=($(compgen -d -- "$cur"))'
        : `COMPREPLY=($(compgen -W "${shellWords(flag.value.words)}" -- "$cur"))`;
      lines.push(`    ${flag.names.map((n) => `"${ctx.path}:${n}"`).join("|")}) ${action} ;;`);
    }
  }
  return lines.join("\n");
}

function operandCases(all: Context[]): string {
  const lines: string[] = [];
  for (const ctx of all) {
    const o = ctx.operands;
    let action: string | undefined;
    if (o === "extensions") action = 'COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" completion --list-extensions 2>/dev/null)" -- "$cur"))';
    else if (o === "file") action = 'COMPREPLY=($(compgen -f -- "$cur"))';
    else if (o === "folder") action = 'COMPREPLY=($(compgen -d -- "$cur"))';
    else if (typeof o === "object") {
      const words = "commands" in o ? subcommandNames(ctx) : o.words;
      // Only the first operand is a subcommand (or a shell name); a root prompt is free text.
      action = `[ "$operands" -eq 0 ] && COMPREPLY=($(compgen -W "${shellWords(words)}" -- "$cur"))`;
    }
    if (action) lines.push(`    "${ctx.path}") ${action} ;;`);
  }
  return lines.join("\n");
}

export function bashScript(spec: CommandSpec): string {
  const all = contexts(spec);
  const flagCases = all.map((ctx) => `    "${ctx.path}") echo "${shellWords(names(ctx))}" ;;`).join("\n");
  const valuedCases = all.filter((ctx) => valued(ctx).length).map((ctx) => `    "${ctx.path}") echo " ${shellWords(valued(ctx))} " ;;`).join("\n");
  const subCases = all.filter((ctx) => subcommandNames(ctx).length)
    .map((ctx) => `    "${ctx.path}") echo " ${shellWords(subcommandNames(ctx))} " ;;`).join("\n");
  return `# zot completion for bash. Load it from ~/.bashrc:  source <(zot completion bash)
_zot_flags() {
  case "$1" in
${flagCases}
  esac
}
_zot_valued() {
  case "$1" in
${valuedCases}
  esac
}
_zot_subcommands() {
  case "$1" in
${subCases}
  esac
}
_zot() {
  # In zsh (bashcompinit): 0-based arrays as in bash; and no variable named path, which zsh ties to PATH.
  [ -n "\${ZSH_VERSION-}" ] && setopt localoptions ksharrays
  local cur="\${COMP_WORDS[COMP_CWORD]}" ctx="" valflag="" operands=0 i w
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [ -n "$valflag" ]; then
      # bash splits --flag=value at the "=": the value is the word after it.
      [ "$w" = "=" ] || valflag=""
      continue
    fi
    case "$w" in
      --) return 0 ;;
      -*) case "$(_zot_valued "$ctx")" in *" $w "*) valflag="$w" ;; esac ;;
      *)
        case "$(_zot_subcommands "$ctx")" in
          *" $w "*) [ "$operands" -eq 0 ] && { ctx="\${ctx:+$ctx }$w"; continue; } ;;
        esac
        operands=$((operands + 1))
        # A root word that is no command starts a prompt: nothing to complete in it.
        [ -z "$ctx" ] && return 0
        ;;
    esac
  done
  if [ "$cur" = "=" ]; then
    cur=""
    case "$(_zot_valued "$ctx")" in *" \${COMP_WORDS[COMP_CWORD-1]} "*) valflag="\${COMP_WORDS[COMP_CWORD-1]}" ;; esac
  fi
  local prefix=""
  # --flag=value in one word (a COMP_WORDBREAKS without "="): complete the value after the "=".
  if [ -z "$valflag" ] && [[ "$cur" == --*=* ]]; then
    valflag="\${cur%%=*}" prefix="\${cur%%=*}="
    cur="\${cur#*=}"
  fi
  if [ -n "$valflag" ]; then
    case "$ctx:$valflag" in
${valueCases(all)}
    esac
    [ -n "$prefix" ] && COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_zot_flags "$ctx")" -- "$cur"))
    return 0
  fi
  case "$ctx" in
${operandCases(all)}
  esac
  return 0
}
if [ -n "\${ZSH_VERSION-}" ]; then
  autoload -U +X bashcompinit && bashcompinit
fi
complete -F _zot zot
`;
}
