// zot from source on Bun and Deno, as the runtime tests start it (the Node bundle is ZOT).
import { join } from "node:path";
import { ROOT } from "./support.ts";

export const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
export const SOURCE = join(ROOT, "bin", "zot.ts");

export interface SourceRuntime {
  name: string;
  argv: string[];
  env?: Record<string, string>;
}

export const bunFromSource: SourceRuntime = { name: "Bun (bin/zot.ts)", argv: [bin("bun"), SOURCE] };

/** Offline by construction: no remote modules, npm packages only from ./node_modules (found
 * through package.json), no lockfile written into the checkout, and a private cache folder. */
export function denoFromSource(denoDir: string): SourceRuntime {
  return {
    name: "Deno (bin/zot.ts)",
    argv: [bin("deno"), "run", "-A", "--no-remote", "--cached-only", "--node-modules-dir=manual", "--no-lock", SOURCE],
    env: { DENO_DIR: denoDir },
  };
}
