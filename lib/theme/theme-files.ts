// Which theme files a bundle folder holds, without reading them: manifest loading decides a
// bundle's kind with it, and needs none of the theme code.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The theme files of bundle folder `dir`, in a stable order. */
export function themeFiles(dir: string): string[] {
  const files = existsSync(join(dir, "theme.json")) ? [join(dir, "theme.json")] : [];
  try {
    for (const name of readdirSync(join(dir, "themes")).filter((n) => n.endsWith(".json")).sort()) files.push(join(dir, "themes", name));
  } catch {
    // no themes folder
  }
  return files;
}
