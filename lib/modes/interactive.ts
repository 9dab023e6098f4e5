// The interactive REPL. (A line-based REPL with panels is the next piece of work; until it
// lands, a prompt given on the command line or stdin runs as in print mode.)
import type { RootOptions } from "../cli/root-args.ts";
import { UsageError } from "../cli/root-args.ts";
import { runPrint } from "./print.ts";

export async function runInteractive(options: RootOptions, env: Record<string, string | undefined>): Promise<number> {
  if (options.prompt === undefined && process.stdin.isTTY) {
    throw new UsageError("the interactive REPL is not available yet: pass a prompt, or use -p, --mode json or --mode rpc");
  }
  return runPrint({ ...options, mode: "print" }, env);
}
