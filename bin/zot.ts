#!/usr/bin/env node
// Entry point: hands argv to the CLI and exits with its code once output is flushed (extension
// pipes or a still-open stdin must not keep a finished zot alive).
import { main } from "../lib/cli/main.ts";

// A stdout or stderr whose reader went away (`zot … 2>&1 | head -1`) has nobody left to tell:
// its write errors must not crash zot before it has stopped its extensions. A command that only
// prints finishes with its output dropped; the modes that run an agent stop their run
// (modes/mode-output.ts).
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});

function exit(code: number): void {
  process.stdout.write("", (err) => {
    // Output lost for want of space or a broken device, on a run that otherwise succeeded: say so.
    // (A reader that left chose to stop reading; the modes that stream report their own failures.)
    const lost = err !== undefined && err !== null && (err as NodeJS.ErrnoException).code !== "EPIPE" && code === 0;
    if (lost) process.stderr.write(`zot: cannot write to stdout (${err.message})\n`);
    process.stderr.write("", () => process.exit(lost ? 1 : code));
  });
}

main(process.argv.slice(2)).then(exit, (err: unknown) => {
  process.stderr.write(`zot: ${err instanceof Error ? err.message : String(err)}\n`);
  exit(1);
});
