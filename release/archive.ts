// The release archives: gzipped tar for Linux and macOS (node-tar, the npm client's own tar) and
// deflated zip for Windows (fflate, pure JS), so the release needs no archiver binary and runs
// the same on Node and Bun. Every entry gets one mtime and a fixed order, so a rebuild is identical.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync, type Zippable } from "fflate";
import { create as createTar } from "tar";

export interface ArchiveEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  data: Uint8Array;
  /** Unix permission bits, e.g. 0o755 for the binary. */
  mode: number;
}

/** Writes `file`, a .tar.gz of `entries` inside folder `root`, all stamped `mtime` (seconds). */
export function writeTarGz(file: string, root: string, entries: ArchiveEntry[], mtime: number): void {
  // node-tar packs what is on disk: stage the entries with their modes (chmod, past the umask).
  const stage = mkdtempSync(join(tmpdir(), "zot-archive-"));
  try {
    mkdirSync(join(stage, root));
    chmodSync(join(stage, root), 0o755);
    for (const e of entries) {
      writeFileSync(join(stage, root, e.name), e.data);
      chmodSync(join(stage, root, e.name), e.mode);
    }
    // portable: no uid, gid, user names or atime/ctime; the paths are listed so the order is ours.
    createTar(
      { file, cwd: stage, sync: true, gzip: { level: 9 }, portable: true, mtime: new Date(mtime * 1000), noDirRecurse: true },
      [root, ...entries.map((e) => `${root}/${e.name}`)],
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** 1980-01-01T00:00:00Z, the first time a zip entry can carry. */
const DOS_EPOCH = 315_532_800;

/** Writes `file`, a .zip of `entries` inside folder `root`, deflated; Unix modes in the external attributes. */
export function writeZip(file: string, root: string, entries: ArchiveEntry[], mtime: number): void {
  // Zip stores local time from 1980 on: shift by the offset so the stamp reads as UTC wherever the
  // release is built, and clamp to 1980 as zip's DOS dates cannot go earlier.
  const at = new Date(Math.max(mtime, DOS_EPOCH) * 1000);
  const stamp = new Date(at.getTime() + at.getTimezoneOffset() * 60_000);
  const files: Zippable = {};
  for (const e of entries) {
    // os 3 (Unix) is what makes unzip apply the mode in the high half of the attributes.
    files[`${root}/${e.name}`] = [e.data, { level: 9, mtime: stamp, os: 3, attrs: ((0o100000 | e.mode) << 16) >>> 0 }];
  }
  writeFileSync(file, zipSync(files));
}
