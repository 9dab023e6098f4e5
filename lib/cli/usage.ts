// A citty command's help, as citty renders it, coloured only where colour is wanted.
import { type ArgsDef, type CommandDef, renderUsage } from "citty";
import { colorEnabled } from "../modes/repl/style.ts";

/** The usage of `command` (under `parentName`, e.g. "zot ext"), ending in a newline. */
export async function commandHelp(command: CommandDef<ArgsDef>, parentName: string | undefined, out: { isTTY?: boolean },
  env: Record<string, string | undefined>): Promise<string> {
  const usage = await renderUsage(command, parentName ? { meta: { name: parentName } } : undefined);
  // citty colours usage whatever the output is; colour only a terminal, and never with NO_COLOR.
  // node:util only here: its stripVTControlCharacters getter loads util.inspect, which a run never needs.
  return `${colorEnabled(env, Boolean(out.isTTY)) ? usage : (await import("node:util")).stripVTControlCharacters(usage)}\n`;
}
