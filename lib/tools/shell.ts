// The shell bash runs commands with.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

let cachedShell: string | undefined;

/** bash from PATH (or the usual places), else sh. */
export function findShell(): string {
  if (cachedShell) return cachedShell;
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/bin", "/usr/bin", "/usr/local/bin"];
  for (const name of ["bash", "sh"]) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        cachedShell = candidate;
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  cachedShell = "sh";
  return cachedShell;
}
