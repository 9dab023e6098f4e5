// A prompt's slash command argument string → the prompt's arguments: `key=value` pairs by name,
// the other words positionally in declared order (the last declared argument takes the rest).

export interface PromptArgument {
  name: string;
  required?: boolean;
}

export type PromptArgsResult = { ok: true; args: Record<string, string> } | { ok: false; error: string };

export function fillPromptArguments(input: string, declared: PromptArgument[]): PromptArgsResult {
  const names = new Set(declared.map((a) => a.name));
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of input.trim().split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf("=");
    if (eq > 0 && names.has(word.slice(0, eq))) args[word.slice(0, eq)] = word.slice(eq + 1);
    else positional.push(word);
  }
  const open = declared.filter((a) => !(a.name in args));
  for (let i = 0; i < open.length && positional.length > 0; i++) {
    // The last open argument takes every remaining word: `/review fix the parser` fills one argument.
    args[open[i]!.name] = i === open.length - 1 ? positional.splice(0).join(" ") : positional.shift()!;
  }
  if (positional.length > 0) {
    return { ok: false, error: declared.length === 0 ? "takes no arguments" : `too many arguments (it takes ${declared.map((a) => a.name).join(", ")})` };
  }
  const missing = declared.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length > 0) return { ok: false, error: `missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}` };
  return { ok: true, args };
}

/** `city [state]`: the usage line a prompt's command shows. */
export function promptUsage(declared: PromptArgument[]): string {
  return declared.map((a) => (a.required ? a.name : `[${a.name}]`)).join(" ");
}
