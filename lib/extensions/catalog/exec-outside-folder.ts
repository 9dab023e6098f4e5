// The warning discovery gives when a manifest's relative `exec` leads out of the extension's
// folder: a check on the manifest's text and the folder's path, which starts nothing.
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * A warning when a relative `exec` leads out of the extension's folder (`../other/run.sh`):
 * zot runs it, but the program is not part of the extension that was installed or reviewed.
 */
export function execOutsideFolder(dir: string, exec: string): string | undefined {
  if (isAbsolute(exec) || !/[\\/]/.test(exec)) return undefined;
  const target = resolve(dir, exec);
  const rel = relative(resolve(dir), target);
  if (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return undefined;
  return `exec "${exec}" resolves outside the extension's folder, to ${target}; it runs, but it is not part of this extension`;
}
