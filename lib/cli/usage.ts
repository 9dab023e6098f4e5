// A command's help as zot lays it out (help/render.ts), fitted to the terminal, coloured only
// where colour is wanted.
import type { ArgsDef, CommandDef } from "citty";
import { colorEnabled } from "../modes/repl/style.ts";
import { renderHelp, type HelpSpec } from "./help/render.ts";
import { helpWidth } from "./help/wrap.ts";

export type HelpOut = { isTTY?: boolean; columns?: number };

/** `spec` rendered for `out`: its width (COLUMNS first) and its colour (a terminal without NO_COLOR). */
export function helpFor(spec: HelpSpec, out: HelpOut, env: Record<string, string | undefined>): string {
  return renderHelp(spec, helpWidth(out, env), colorEnabled(env, Boolean(out.isTTY)));
}

/** The usage of `command` (under `parentName`, e.g. "zot ext"), ending in a newline. */
export async function commandHelp(command: CommandDef<ArgsDef>, parentName: string | undefined, out: HelpOut,
  env: Record<string, string | undefined>, extra: Partial<HelpSpec> = {}): Promise<string> {
  const meta = (typeof command.meta === "function" ? await command.meta() : await command.meta) ?? {};
  const args = (typeof command.args === "function" ? await command.args() : await command.args) as ArgsDef | undefined;
  const name = [parentName, meta.name].filter(Boolean).join(" ");
  return helpFor({ name, description: meta.description, args, ...extra }, out, env);
}
