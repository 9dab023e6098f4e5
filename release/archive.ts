// The release archives: gzipped ustar for Linux and macOS, zip (deflate) for Windows, written and
// read with node:zlib alone so the release needs no archiver binary and runs the same on Node
// and Bun. Only what a release holds is supported: regular files in one folder, names < 100 bytes.
import { crc32, deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";

export interface ArchiveEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  data: Uint8Array;
  /** Unix permission bits, e.g. 0o755 for the binary. */
  mode: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(name: string, size: number, mode: number, mtime: number, type: "0" | "5"): Buffer {
  if (Buffer.byteLength(name) >= 100) throw new Error(`archive entry name too long for ustar: ${name}`);
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, "utf8");
  h.write(octal(mode, 8), 100);
  h.write(octal(0, 8), 108); // uid
  h.write(octal(0, 8), 116); // gid
  h.write(octal(size, 12), 124);
  h.write(octal(mtime, 12), 136);
  h.write("        ", 148); // checksum field counts as spaces while summing
  h.write(type, 156);
  h.write("ustar\u000000", 257);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148);
  return h;
}

/** A .tar.gz of `entries`, each inside folder `root`; `mtime` (seconds) keeps it reproducible. */
export function writeTarGz(root: string, entries: ArchiveEntry[], mtime: number): Buffer {
  const parts: Buffer[] = [tarHeader(`${root}/`, 0, 0o755, mtime, "5")];
  for (const e of entries) {
    parts.push(tarHeader(`${root}/${e.name}`, e.data.length, e.mode, mtime, "0"), Buffer.from(e.data));
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/** The regular files of a .tar.gz, with their full paths. */
export function readTarGz(archive: Uint8Array): ArchiveEntry[] {
  const tar = gunzipSync(archive);
  const out: ArchiveEntry[] = [];
  for (let at = 0; at + BLOCK <= tar.length;) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const field = (start: number, len: number) => h.subarray(start, start + len).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const type = field(156, 1) || "0";
    at += BLOCK;
    if (type === "0") out.push({ name, data: tar.subarray(at, at + size), mode: parseInt(field(100, 8).trim(), 8) });
    at += Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}

/** DOS date and time of a Unix time in seconds (UTC), as zip stores it. */
function dosDateTime(mtime: number): { date: number; time: number } {
  const d = new Date(mtime * 1000);
  return {
    date: ((Math.max(d.getUTCFullYear(), 1980) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
  };
}

/** A .zip of `entries`, each inside folder `root`, deflated; Unix modes kept in the external attributes. */
export function writeZip(root: string, entries: ArchiveEntry[], mtime: number): Buffer {
  const { date, time } = dosDateTime(mtime);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(`${root}/${e.name}`, "utf8");
    const packed = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: deflate
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below counts
    local.copy(central, 6, 4, 26); // version needed … uncompressed size: same as the local header
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The files of a .zip, inflated and checked against their CRC-32. */
export function readZip(archive: Uint8Array): ArchiveEntry[] {
  const buf = Buffer.from(archive.buffer, archive.byteOffset, archive.length);
  const endAt = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("not a zip archive: no end of central directory");
  const count = buf.readUInt16LE(endAt + 10);
  let at = buf.readUInt32LE(endAt + 16);
  const out: ArchiveEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error("corrupt zip: bad central directory entry");
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const packedSize = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const mode = (buf.readUInt32LE(at + 38) >>> 16) & 0o7777;
    const localAt = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    const dataAt = localAt + 30 + buf.readUInt16LE(localAt + 26) + buf.readUInt16LE(localAt + 28);
    const packed = buf.subarray(dataAt, dataAt + packedSize);
    const data = method === 8 ? inflateRawSync(packed) : packed;
    if (crc32(data) !== crc) throw new Error(`corrupt zip: CRC mismatch for ${name}`);
    out.push({ name, data, mode });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Reads either kind by its file name. */
export function readArchive(fileName: string, archive: Uint8Array): ArchiveEntry[] {
  if (fileName.endsWith(".tar.gz") || fileName.endsWith(".tgz")) return readTarGz(archive);
  if (fileName.endsWith(".zip")) return readZip(archive);
  throw new Error(`unknown archive kind: ${fileName}`);
}
