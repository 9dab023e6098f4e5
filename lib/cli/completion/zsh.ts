// `zot completion zsh`: zsh runs the bash completion function through its bashcompinit layer
// (the function switches on ksharrays so bash's 0-based word indices hold), so one function
// serves both shells.
import { bashScript } from "./bash.ts";
import type { CommandSpec } from "./spec.ts";

export function zshScript(spec: CommandSpec): string {
  return bashScript(spec).replace(/^# .*\n/,
    "# zot completion for zsh. Load it from ~/.zshrc (after compinit):  source <(zot completion zsh)\n");
}
