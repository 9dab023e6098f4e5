// Containment of resolved paths: the file tools' jail and the installer's symlink policy ask the
// same question.
import { isAbsolute, relative, sep } from "node:path";

/** True when `path` is `root` or lies below it (both absolute, already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === "") return true;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
