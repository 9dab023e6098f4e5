// How the running zot was installed, which decides whether `zot upgrade` may replace it: only a
// release binary (install.sh or a download) is ours to replace; npm and a checkout have their own
// ways to update, and replacing node or bun would be wrong.
import { realpathSync } from "node:fs";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledBun } from "../extensions/runtime/sdk-env.ts";

export type InstallKind =
  | { kind: "binary"; path: string }
  | { kind: "npm"; path: string }
  | { kind: "checkout"; path: string };

/**
 * A `bun build --compile` binary is `process.execPath`; otherwise zot is JavaScript run by a
 * runtime, and where this module sits says which: inside a `node_modules` folder it came from
 * npm, anywhere else it is a checkout (`dist/zot.mjs` or `bin/zot.ts`).
 */
export function installKind(runtime: { versions: NodeJS.ProcessVersions; execPath: string } = process,
  moduleFile: string = fileURLToPath(import.meta.url)): InstallKind {
  const binary = bundledBun(runtime);
  // The file itself, not a symlink to it: renaming over a link would leave the binary as it was.
  if (binary) return { kind: "binary", path: realOrSelf(binary) };
  const parts = moduleFile.split(sep);
  const nodeModules = parts.lastIndexOf("node_modules");
  if (nodeModules >= 0) {
    // The package folder: node_modules/@scope/name or node_modules/name.
    const depth = parts[nodeModules + 1]?.startsWith("@") ? 3 : 2;
    return { kind: "npm", path: parts.slice(0, nodeModules + depth).join(sep) };
  }
  const dist = parts.lastIndexOf("dist");
  const lib = parts.lastIndexOf("lib");
  return { kind: "checkout", path: parts.slice(0, Math.max(dist, lib, 1)).join(sep) || sep };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
