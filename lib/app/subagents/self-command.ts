// How zot starts another zot: the same runtime and entry it was started with. A bundle or the
// source runs as `<node|bun> [runtime flags] <script>`; Deno does not report its run flags, so a
// child gets `deno run -A --no-lock <script>`; a compiled binary is its own entry (Bun reports a
// virtual path under /$bunfs/ or B:/~BUN/ as the script).
import type { SelfCommand } from "./child-run.ts";

export interface ProcessFacts {
  argv: readonly string[];
  execPath: string;
  execArgv: readonly string[];
  versions: Record<string, string | undefined>;
}

export function selfCommand(facts: ProcessFacts = process): SelfCommand {
  const script = facts.argv[1];
  const compiled = script === undefined || script === facts.execPath || /^(\/\$bunfs\/|[A-Za-z]:[\\/]~BUN[\\/])/.test(script);
  if (compiled) return { command: facts.execPath, args: [] };
  if (facts.versions.deno) return { command: facts.execPath, args: ["run", "-A", "--no-lock", script] };
  return { command: facts.execPath, args: [...facts.execArgv, script] };
}
