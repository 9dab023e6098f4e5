// The release's tar.gz (node-tar) and zip (fflate) archives: what they hold reads back the same,
// and the system's tar and unzip (what a user downloading a release has) read it too, modes included.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeTarGz, writeZip, type ArchiveEntry } from "../../release/archive.ts";
import { binaryFormat } from "../../release/binary-format.ts";
import { parseSums, renderSums } from "../../release/checksums.ts";
import { readTarGz, readZip } from "./archive-reader.ts";

const scratch = mkdtempSync(join(tmpdir(), "zot-archive-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const entries: ArchiveEntry[] = [
  { name: "zot", data: Buffer.from("#!/bin/sh\necho hi\n".repeat(300)), mode: 0o755 },
  { name: "README.md", data: Buffer.from("# zot\n"), mode: 0o644 },
  { name: "LICENSE", data: Buffer.alloc(0), mode: 0o644 },
];
const MTIME = 1_700_000_000;
let written = 0;

/** Writes an archive with `write` into a fresh scratch file and returns its path. */
function archive(write: typeof writeTarGz, ext: string, root: string, list = entries): string {
  const file = join(scratch, `${++written}.${ext}`);
  write(file, root, list, MTIME);
  return file;
}

describe("release archives", () => {
  it("a tar.gz reads back with the same names, bytes and modes, in order, and system tar extracts it", () => {
    const file = archive(writeTarGz, "tar.gz", "zot-1.2.3-linux-x64");
    expect(readTarGz(file).map((e) => ({ ...e, data: Buffer.from(e.data).toString() })))
      .toEqual(entries.map((e) => ({ ...e, name: `zot-1.2.3-linux-x64/${e.name}`, data: e.data.toString() })));
    execFileSync("tar", ["-xzf", file], { cwd: scratch });
    const zot = join(scratch, "zot-1.2.3-linux-x64", "zot");
    expect(statSync(zot).mode & 0o777).toBe(0o755);
    expect(statSync(zot).mtimeMs).toBe(MTIME * 1000);
    expect(execFileSync(zot, { encoding: "utf8" })).toBe("hi\n".repeat(300));
  });

  it("a tar.gz names no user or group of the machine that built it", () => {
    const listing = execFileSync("tar", ["-tvzf", archive(writeTarGz, "tar.gz", "r")], { encoding: "utf8" });
    expect(listing.trim().split("\n").map((l) => l.split(/\s+/)[1])).toEqual(["0/0", "0/0", "0/0", "0/0"]);
  });

  it("the same input gives the same bytes (a rebuild of a release is identical)", () => {
    for (const [write, ext] of [[writeTarGz, "tar.gz"], [writeZip, "zip"]] as const) {
      expect(readFileSync(archive(write, ext, "r")).equals(readFileSync(archive(write, ext, "r"))), ext).toBe(true);
    }
  });

  it("a zip reads back the same, passes unzip's integrity test and keeps the binary executable", () => {
    const file = archive(writeZip, "zip", "zot-1.2.3-windows-x64");
    expect(readZip(file).map((e) => [e.name, Buffer.from(e.data).toString(), e.mode]))
      .toEqual(entries.map((e) => [`zot-1.2.3-windows-x64/${e.name}`, e.data.toString(), e.mode]));
    expect(execFileSync("unzip", ["-tq", file], { cwd: scratch, encoding: "utf8" })).toContain("No errors detected");
    execFileSync("unzip", ["-oq", file], { cwd: scratch });
    expect(statSync(join(scratch, "zot-1.2.3-windows-x64", "zot")).mode & 0o777).toBe(0o755);
  });

  it("a zip's entries are stamped with the release time, read as UTC", () => {
    const listing = execFileSync("unzip", ["-Z", "-T", archive(writeZip, "zip", "r")], { encoding: "utf8" });
    // -T prints yyyymmdd.hhmmss; DOS time has two-second steps, and 1_700_000_000 is 2023-11-14 22:13:20 UTC.
    expect(listing).toContain("20231114.221320 r/zot");
  });

  it("a corrupted zip entry is refused, not returned", () => {
    const file = archive(writeZip, "zip", "r");
    const bytes = readFileSync(file);
    bytes[40 + "r/zot".length] ^= 0xff; // inside the first entry's deflated data
    writeFileSync(file, bytes);
    expect(() => readZip(file)).toThrow(/corrupt zip|invalid/);
  });

  it("an entry name longer than ustar's 100 bytes is kept whole, not truncated", () => {
    const long = [{ name: "x".repeat(120), data: Buffer.from("y"), mode: 0o644 }];
    expect(readTarGz(archive(writeTarGz, "tar.gz", "r", long)).map((e) => e.name)).toEqual([`r/${"x".repeat(120)}`]);
    expect(execFileSync("tar", ["-tzf", join(scratch, `${written}.tar.gz`)], { encoding: "utf8" })).toContain(`r/${"x".repeat(120)}\n`);
  });
});

describe("SHA256SUMS", () => {
  it("renders what sha256sum -c and shasum -a 256 -c accept, and parses it back", () => {
    const files = [{ name: "a.tar.gz", data: Buffer.from("a") }, { name: "b.zip", data: Buffer.from("b") }];
    const text = renderSums(files);
    for (const f of files) writeFileSync(join(scratch, f.name), f.data);
    writeFileSync(join(scratch, "SHA256SUMS"), text);
    // Linux has sha256sum, macOS shasum: the two tools a downloader verifies with.
    const [tool, ...args] = spawnSync("sha256sum", ["--version"]).status === 0 ? ["sha256sum", "-c"] : ["shasum", "-a", "256", "-c"];
    expect(execFileSync(tool!, [...args, "SHA256SUMS"], { cwd: scratch, encoding: "utf8" })).toBe("a.tar.gz: OK\nb.zip: OK\n");
    expect(parseSums(text).get("a.tar.gz")).toBe("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
    expect(() => parseSums("nonsense\n")).toThrow("not a SHA256SUMS line: nonsense");
  });
});

describe("binary formats", () => {
  /** A header with `bytes` written at their offsets, the rest zero. */
  function header(size: number, fill: (b: Buffer) => void): Buffer {
    const b = Buffer.alloc(size);
    fill(b);
    return b;
  }
  const elf = (machine: number) => header(64, (b) => { b.writeUInt32BE(0x7f454c46, 0); b[4] = 2; b[5] = 1; b.writeUInt16LE(machine, 18); });
  const macho = (cpu: number) => header(32, (b) => { b.writeUInt32LE(0xfeedfacf, 0); b.writeUInt32LE(cpu, 4); });
  const pe = (magic: number) => header(256, (b) => {
    b.write("MZ", 0, "latin1");
    b.writeUInt32LE(0x80, 0x3c);
    b.writeUInt32BE(0x50450000, 0x80);
    b.writeUInt16LE(0x8664, 0x84);
    b.writeUInt16LE(magic, 0x98);
  });

  it("tells the five release formats apart by their headers", () => {
    expect(binaryFormat(elf(0x3e))).toBe("ELF x86-64");
    expect(binaryFormat(elf(0xb7))).toBe("ELF aarch64");
    expect(binaryFormat(macho(0x01000007))).toBe("Mach-O x86-64");
    expect(binaryFormat(macho(0x0100000c))).toBe("Mach-O arm64");
    expect(binaryFormat(pe(0x20b))).toBe("PE32+ x86-64");
  });

  it("names what a file is when it is none of them", () => {
    expect(binaryFormat(elf(0x28))).toBe("unknown: ELF machine 0x28");
    expect(binaryFormat(pe(0x10b))).toBe("unknown: PE32, not PE32+");
    expect(binaryFormat(Buffer.from("#!/bin/sh\n"))).toBe("unknown: not an executable");
  });

  it(`this machine's node is recognised as a ${process.arch} executable`, () => {
    const expected = { x64: { linux: "ELF x86-64", darwin: "Mach-O x86-64" }, arm64: { linux: "ELF aarch64", darwin: "Mach-O arm64" } } as Record<string, Record<string, string>>;
    const head = Buffer.alloc(4096);
    const fd = openSync(process.execPath, "r");
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    expect(binaryFormat(head)).toBe(expected[process.arch]?.[process.platform]);
  });
});
