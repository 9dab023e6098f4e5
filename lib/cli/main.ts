// Top-level dispatch. citty cannot mix a positional prompt with subcommands, so `ext` is routed
// here and the root command stays subcommand-free.
import { ZOT_VERSION } from "../version.ts";

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "ext") {
    const { runExt } = await import("./ext/index.ts");
    return runExt(argv.slice(1));
  }
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    process.stdout.write(`${ZOT_VERSION}\n`);
    return 0;
  }
  const { runRoot } = await import("./root.ts");
  return runRoot(argv);
}
