// Replaces a file through a temp file and a rename in the same folder, so a crash never leaves
// half a file (host.md: config, manifests on enable/disable). An existing file keeps its
// permission bits unless `mode` says otherwise.
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomHex } from "../random-id.ts";

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  if (mode === undefined) {
    try {
      mode = (await stat(path)).mode & 0o777;
    } catch {
      // a new file gets the default mode
    }
  }
  const temp = join(dir, `.${basename(path)}.${process.pid}-${randomHex(4)}.tmp`);
  try {
    await writeFile(temp, data, { mode });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
