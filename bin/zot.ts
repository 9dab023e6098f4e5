#!/usr/bin/env node
// Entry point: hands argv to the CLI and exits with its code once output is flushed (extension
// pipes or a still-open stdin must not keep a finished zot alive).
import { main } from "../lib/cli/main.ts";
import { restoreJitPolicyAfterStartup } from "../lib/jit-policy.ts";
import { useStdStreams, usesDirectStdio, writeStderr } from "../lib/std-output.ts";

restoreJitPolicyAfterStartup();

function exit(code: number): void {
  // Direct writes are done when they return: nothing is left to drain.
  if (usesDirectStdio()) process.exit(code);
  useStdStreams();
  process.stdout.write("", (err) => {
    // Output lost for want of space or a broken device, on a run that otherwise succeeded: say so.
    // (A reader that left chose to stop reading; the modes that stream report their own failures.)
    const lost = err !== undefined && err !== null && (err as NodeJS.ErrnoException).code !== "EPIPE" && code === 0;
    if (lost) process.stderr.write(`zot: cannot write to stdout (${err.message})\n`);
    process.stderr.write("", () => process.exit(lost ? 1 : code));
  });
}

main(process.argv.slice(2)).then(exit, (err: unknown) => {
  writeStderr(`zot: ${err instanceof Error ? err.message : String(err)}\n`);
  exit(1);
});
