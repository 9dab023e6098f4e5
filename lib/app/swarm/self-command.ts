// How zot starts another zot: the same runtime and entry it was started with. A bundle or the
// source runs as `<node|bun|deno> [runtime flags] <script>`; a compiled binary is its own entry
// (Bun reports a virtual path under /$bunfs/ or B:/~BUN/ as the script).
import type { SelfCommand } from "./child-run.ts";

export function selfCommand(argv: readonly string[] = process.argv, execPath = process.execPath,
  execArgv: readonly string[] = process.execArgv): SelfCommand {
  const script = argv[1];
  const compiled = script === undefined || script === execPath || /^(\/\$bunfs\/|[A-Za-z]:[\\/]~BUN[\\/])/.test(script);
  return { command: execPath, args: compiled ? [] : [...execArgv, script] };
}
