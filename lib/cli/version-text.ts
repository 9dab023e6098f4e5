// `zot --version` prints the bare version; with --verbose, the build facts follow it.
import { ZOT_VERSION } from "../version.ts";

const VERSION_FLAGS = new Set(["--version", "-v", "--verbose"]);

/** `--version`/`-v`, optionally with `--verbose`: answered before the full CLI loads. */
export function isVersionRequest(argv: string[]): boolean {
  return argv.length > 0 && argv.every((a) => VERSION_FLAGS.has(a)) && argv.some((a) => a !== "--verbose");
}

export async function versionText(verbose: boolean): Promise<string> {
  if (!verbose) return `${ZOT_VERSION}\n`;
  const { buildInfo, renderBuildInfo } = await import("../build-info.ts");
  return renderBuildInfo(buildInfo(ZOT_VERSION));
}
