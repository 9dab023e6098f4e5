// The zot binary out of a release archive, read in memory with the libraries that wrote it
// (release/archive.ts): node-tar for .tar.gz (after node:zlib's gunzip, so no zlib internals
// are touched) and fflate for .zip. Both are bundled into zot, so no system tar or unzip is
// needed. Only the one expected path is taken: nothing else in the archive is ever written.
import { gunzipSync } from "node:zlib";
import { unzipSync } from "fflate";
import { Parser, type ReadEntry } from "tar";

/** The bytes of regular file `path` in a .tar.gz, or undefined when it has none. */
export function fileFromTarGz(archive: Uint8Array, path: string): Uint8Array | undefined {
  const tar = gunzipSync(archive);
  let found: Buffer[] | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.type !== "File" || entry.path !== path) return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => (found = chunks));
    },
  });
  let failure: Error | undefined;
  parser.on("error", (err: Error) => (failure ??= err));
  parser.end(tar);
  if (failure) throw failure;
  return found && new Uint8Array(Buffer.concat(found));
}

/** The bytes of file `path` in a .zip, or undefined when it has none. */
export function fileFromZip(archive: Uint8Array, path: string): Uint8Array | undefined {
  return unzipSync(archive, { filter: (f) => f.name === path })[path];
}
