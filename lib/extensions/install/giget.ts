// Downloads a giget source (gh:/github:/gitlab:/bitbucket:/sourcehut:, tarball URL) into a
// staging folder. zot fetches the tarball itself, fresh each time and with an idle deadline
// (see download.ts), and hands giget only the local file to extract. giget's extractor drops
// `..` entries and escaping links without a word, so every archive entry is recorded and
// checked: any that escapes, fails to land, or lands as a folder although it was not one (a
// dropped link whose path a later entry recreated) is an error.
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, mkdtemp } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { downloadTemplate } from "giget";
import { downloadFile } from "./download.ts";
import { tarballLocation } from "./giget-source.ts";
import { removeTree } from "./remove-tree.ts";

/** The provider name under which giget sees zot's already-downloaded tarballs. */
const LOCAL_PROVIDER = "zot-download";

export interface GigetDownloadOptions {
  /** Abandon the download after this long without progress (default 60 s). */
  idleTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

function escapes(entry: string): boolean {
  return entry.startsWith("/") || /^[A-Za-z]:/.test(entry) || entry.split(/[\\/]/).includes("..");
}

/** giget's cache folder (as its cacheDirectory() computes it): where it copies the tarball. */
function gigetCacheDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === "win32") return resolve(tmpdir(), "giget");
  return env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME, "giget") : resolve(homedir(), ".cache/giget");
}

/**
 * Downloads and extracts `source` into `dir` (an empty folder). Throws when the download fails
 * (naming the URL and the HTTP status or network error), goes `idleTimeoutMs` without progress,
 * or the archive holds an entry that escapes the folder or that the extractor refused (such as
 * a symlink pointing outside), naming the entry; the caller rolls back `dir`. No cached copy is
 * ever used.
 */
export async function downloadWithGiget(source: string, dir: string, options: GigetDownloadOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const location = tarballLocation(source, env);
  const scratch = await mkdtemp(join(tmpdir(), "zot-download-"));
  // A fresh name each time: giget's copy can never be mistaken for an earlier download.
  const id = `install-${randomBytes(8).toString("hex")}`;
  try {
    const tarball = join(scratch, "archive.tar.gz");
    await downloadFile(location.url, tarball, {
      headers: location.headers,
      idleTimeoutMs: options.idleTimeoutMs,
      source,
    });
    await extract(source, tarball, location.subdir, dir, id);
  } finally {
    await removeTree(scratch);
    await removeTree(join(gigetCacheDir(env), LOCAL_PROVIDER, id));
  }
}

async function extract(source: string, tarball: string, subdir: string, dir: string, id: string): Promise<void> {
  /** Paths relative to `dir`; tar marks folder entries with a trailing "/". */
  const entries: Array<{ path: string; folder: boolean }> = [];
  const escaping: string[] = [];
  try {
    await downloadTemplate(`${LOCAL_PROVIDER}:${id}`, {
      providers: { [LOCAL_PROVIDER]: () => ({ name: id, version: id, subdir, tar: () => createReadStream(tarball) }) },
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
    throw new Error(`the archive from ${source} could not be extracted: ${(err as Error).message}`);
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
