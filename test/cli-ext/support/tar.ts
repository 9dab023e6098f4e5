// Builds .tar.gz archives by hand, so tests can serve archives no well-behaved tar would make
// (entries with `../`, symlinks pointing outside).
import { gzipSync } from "node:zlib";

export interface TarEntry {
  path: string;
  type: "file" | "dir" | "symlink";
  content?: string;
  linkpath?: string;
  mode?: number;
}

function put(header: Buffer, offset: number, length: number, text: string): void {
  header.write(text, offset, Math.min(length, Buffer.byteLength(text)), "utf8");
}

function putOctal(header: Buffer, offset: number, length: number, value: number): void {
  put(header, offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
}

/** A gzipped ustar archive of `entries`, in order. Paths must fit in 100 bytes. */
export function tarGz(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const header = Buffer.alloc(512);
    const body = entry.type === "file" ? Buffer.from(entry.content ?? "") : Buffer.alloc(0);
    put(header, 0, 100, entry.path);
    putOctal(header, 100, 8, entry.mode ?? (entry.type === "dir" ? 0o755 : 0o644));
    putOctal(header, 108, 8, 0);
    putOctal(header, 116, 8, 0);
    putOctal(header, 124, 12, body.length);
    putOctal(header, 136, 12, 1_700_000_000);
    header.write("        ", 148);
    header.write(entry.type === "dir" ? "5" : entry.type === "symlink" ? "2" : "0", 156);
    if (entry.linkpath) put(header, 157, 100, entry.linkpath);
    header.write("ustar\0", 257);
    header.write("00", 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    put(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
    parts.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
