// Reads release archives back for the tests and release:check: tar.gz with node-tar, zip with
// fflate, and the zip's modes and CRCs from the system's unzip (what a downloader extracts with).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import { list as listTar } from "tar";
import type { ArchiveEntry } from "../../release/archive.ts";

/** The regular files of a .tar.gz, with their full paths, bytes and modes. */
export function readTarGz(file: string): ArchiveEntry[] {
  const out: ArchiveEntry[] = [];
  listTar({
    file,
    sync: true,
    onReadEntry: (entry) => {
      if (entry.type !== "File") return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => out.push({ name: entry.path, data: Buffer.concat(chunks), mode: (entry.mode ?? 0) & 0o7777 }));
    },
  });
  return out;
}

const PERMISSION = /^-([r-][w-][xsS-])([r-][w-][xsS-])([r-][w-][xtT-])\s.*\s(\S+)$/;

/** The permission bits of `rwxr-xr-x`. */
function modeOf(triplets: string[]): number {
  return triplets.reduce((mode, t) => (mode << 3) | (t[0] === "r" ? 4 : 0) | (t[1] === "w" ? 2 : 0) | (/[xst]/.test(t[2]!) ? 1 : 0), 0);
}

/** The files of a .zip, refused when unzip's integrity test (CRCs included) fails. */
export function readZip(file: string): ArchiveEntry[] {
  const test = spawnSync("unzip", ["-tq", file], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`corrupt zip: ${(test.stdout + test.stderr).trim()}`);
  const modes = new Map<string, number>();
  for (const line of execFileSync("unzip", ["-Z", file], { encoding: "utf8" }).split("\n")) {
    const m = PERMISSION.exec(line);
    if (m) modes.set(m[4]!, modeOf([m[1]!, m[2]!, m[3]!]));
  }
  return Object.entries(unzipSync(readFileSync(file))).map(([name, data]) => ({ name, data, mode: modes.get(name) ?? 0 }));
}

/** Reads either kind by its file name. */
export function readArchive(file: string): ArchiveEntry[] {
  if (file.endsWith(".tar.gz") || file.endsWith(".tgz")) return readTarGz(file);
  if (file.endsWith(".zip")) return readZip(file);
  throw new Error(`unknown archive kind: ${file}`);
}
