// Downloads a giget source (gh:/github:/gitlab:/bitbucket:/sourcehut:, tarball URL) into a
// staging folder. giget's extractor drops `..` entries and escaping links without a word, so
// every archive entry is recorded and checked: any that escapes, fails to land, or lands as a
// folder although it was not one (a dropped link whose path a later entry recreated) is an error.
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { downloadTemplate } from "giget";

function escapes(entry: string): boolean {
  return entry.startsWith("/") || /^[A-Za-z]:/.test(entry) || entry.split(/[\\/]/).includes("..");
}

/**
 * Downloads and extracts `source` into `dir` (an empty folder). Throws when the archive holds
 * an entry that escapes the folder, or an entry the extractor refused (such as a symlink
 * pointing outside), naming the entry; the caller rolls back `dir`. The registry is never used;
 * GIGET_GITHUB_URL / GIGET_GITLAB_URL and XDG_CACHE_HOME are honoured as giget documents.
 */
export async function downloadWithGiget(source: string, dir: string): Promise<void> {
  /** Paths relative to `dir`; tar marks folder entries with a trailing "/". */
  const entries: Array<{ path: string; folder: boolean }> = [];
  const escaping: string[] = [];
  try {
    await downloadTemplate(source, {
      dir,
      force: true,
      registry: false,
      install: false,
      silent: true,
      ignore: (entry) => {
        if (escapes(entry)) {
          escaping.push(entry);
          return true;
        }
        entries.push({ path: entry.replace(/\/+$/, ""), folder: entry.endsWith("/") });
        return false;
      },
    });
  } catch (err) {
    throw new Error(`download of ${source} failed: ${(err as Error).message}`);
  }
  if (escaping.length > 0) {
    throw new Error(`the archive from ${source} has entries outside its folder (${escaping.join(", ")}); refusing to install it`);
  }
  for (const { path, folder } of entries) {
    if (!path) continue;
    const landed = await lstat(join(dir, path)).catch(() => undefined);
    if (!landed || (!folder && landed.isDirectory())) {
      throw new Error(`the archive from ${source} has an entry that could not be extracted safely (${path}: `
        + "a link pointing outside the folder, or an unsupported file type); refusing to install it");
    }
  }
}
