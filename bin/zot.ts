#!/usr/bin/env node
// Entry point: hands argv to the CLI and exits with its code.
import { main } from "../lib/cli/main.ts";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`zot: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
