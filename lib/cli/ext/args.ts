// Arguments shared by the `zot ext` subcommands (and `zot mcp`): --cwd, --timeout-ms and the
// extension roots they select. Strict checking of argv is ../args.ts.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ArgsDef } from "citty";
import { zotPaths } from "../../paths.ts";
import { extensionRoots, type ExtensionRoots, type InstallScope } from "../../extensions/install/installed.ts";

import { UsageError } from "../../errors.ts";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../../extensions/install/download.ts";

export { UsageError };

/** `--cwd PATH`, accepted by every subcommand: the project root for project-scope operations. */
export const cwdArg = {
  cwd: { type: "string", valueHint: "path", description: "Project folder (default: the current directory)" },
} as const satisfies ArgsDef;

/** `--timeout-ms` of the commands that download or clone (install, update). */
export const fetchTimeoutArg = {
  "timeout-ms": { type: "string", valueHint: "N",
    description: `Give up a download or clone after this long without progress (default ${DEFAULT_IDLE_TIMEOUT_MS})` },
} as const satisfies ArgsDef;

/** The scope `--project` or `--global` narrows a lookup to; neither means both scopes. */
export function scopeOf(args: { project?: boolean; global?: boolean }): InstallScope | undefined {
  if (args.project && args.global) throw new UsageError("--project and --global exclude each other");
  return args.project ? "project" : args.global ? "global" : undefined;
}

/** `--timeout-ms`: a whole number of milliseconds, at least 1; `fallback` when absent. */
export function parseTimeoutMs(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`--timeout-ms expects a whole number of milliseconds (at least 1), got "${String(value)}"`);
  }
  return Number(value);
}

/** The project folder from `--cwd` (resolved against the process directory) or the process directory. */
export function projectDir(cwd: unknown): string {
  if (typeof cwd !== "string" || cwd === "") return process.cwd();
  const dir = resolve(cwd);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--cwd ${cwd}: no such folder`);
  return dir;
}

/** Project and global extension roots for this invocation. */
export function rootsFor(cwd: unknown): ExtensionRoots {
  return extensionRoots(projectDir(cwd), zotPaths());
}
