// When zot runs as root, a sandboxed process is still uid 0 to the kernel (a user namespace maps
// it, it does not change it), so the owner bits of root's files let it read /etc/shadow, private
// keys and the like through the read-only /etc every sandbox gets. The sandbox hides what only
// root may read there instead: every file and folder under /etc that others cannot read is
// covered (an empty file, or an empty folder) in the sandbox. Found once per process, without
// blocking the event loop (about 10 ms for a Debian /etc).
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

export interface RootOnlyEntries {
  files: string[];
  dirs: string[];
}

const NONE: RootOnlyEntries = { files: [], dirs: [] };
const cache = new Map<string, Promise<RootOnlyEntries>>();

async function scan(dir: string, found: RootOnlyEntries): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.map(async (name) => {
    const path = join(dir, name);
    let info;
    try {
      info = await lstat(path);
    } catch {
      return;
    }
    if (info.isSymbolicLink()) return; // the link's target is what counts, and it is checked where it lives
    const othersRead = (info.mode & 0o004) !== 0;
    if (info.isDirectory()) {
      if (!othersRead || (info.mode & 0o001) === 0) found.dirs.push(path);
      else await scan(path, found);
    } else if (!othersRead) found.files.push(path);
  }));
}

/** What only root may read under `root` (default /etc); nothing when zot is not root. */
export function rootOnlyEntries(root = "/etc", uid = process.getuid?.() ?? -1): Promise<RootOnlyEntries> {
  if (uid !== 0) return Promise.resolve(NONE);
  let entries = cache.get(root);
  if (!entries) {
    entries = (async () => {
      const found: RootOnlyEntries = { files: [], dirs: [] };
      await scan(root, found);
      found.files.sort();
      found.dirs.sort();
      return found;
    })();
    cache.set(root, entries);
  }
  return entries;
}
