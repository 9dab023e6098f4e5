// The release's own tar.gz and zip writers: what they write reads back the same, and the
// system's tar and unzip (what a user downloading a release has) read it too, modes included.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTarGz, readZip, writeTarGz, writeZip, type ArchiveEntry } from "../../release/archive.ts";
import { binaryFormat } from "../../release/binary-format.ts";
import { parseSums, renderSums } from "../../release/checksums.ts";

const scratch = mkdtempSync(join(tmpdir(), "zot-archive-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const entries: ArchiveEntry[] = [
  { name: "zot", data: Buffer.from("#!/bin/sh\necho hi\n".repeat(300)), mode: 0o755 },
  { name: "README.md", data: Buffer.from("# zot\n"), mode: 0o644 },
  { name: "LICENSE", data: Buffer.alloc(0), mode: 0o644 },
];
const MTIME = 1_700_000_000;

describe("release archives", () => {
  it("a tar.gz reads back with the same names, bytes and modes, and system tar extracts it", () => {
    const archive = writeTarGz("zot-1.2.3-linux-x64", entries, MTIME);
    expect(readTarGz(archive).map((e) => ({ ...e, data: Buffer.from(e.data).toString() })))
      .toEqual(entries.map((e) => ({ ...e, name: `zot-1.2.3-linux-x64/${e.name}`, data: e.data.toString() })));
    writeFileSync(join(scratch, "a.tar.gz"), archive);
    execFileSync("tar", ["-xzf", "a.tar.gz"], { cwd: scratch });
    const zot = join(scratch, "zot-1.2.3-linux-x64", "zot");
    expect(statSync(zot).mode & 0o777).toBe(0o755);
    expect(statSync(zot).mtimeMs).toBe(MTIME * 1000);
    expect(execFileSync(zot, { encoding: "utf8" })).toBe("hi\n".repeat(300));
  });

  it("the same input gives the same bytes (a rebuild of a release is identical)", () => {
    expect(writeTarGz("r", entries, MTIME).equals(writeTarGz("r", entries, MTIME))).toBe(true);
    expect(writeZip("r", entries, MTIME).equals(writeZip("r", entries, MTIME))).toBe(true);
  });

  it("a zip reads back the same, passes unzip's integrity test and keeps the binary executable", () => {
    const archive = writeZip("zot-1.2.3-windows-x64", entries, MTIME);
    expect(readZip(archive).map((e) => [e.name, Buffer.from(e.data).toString(), e.mode]))
      .toEqual(entries.map((e) => [`zot-1.2.3-windows-x64/${e.name}`, e.data.toString(), e.mode]));
    writeFileSync(join(scratch, "a.zip"), archive);
    expect(execFileSync("unzip", ["-tq", "a.zip"], { cwd: scratch, encoding: "utf8" })).toContain("No errors detected");
    execFileSync("unzip", ["-oq", "a.zip"], { cwd: scratch });
    expect(statSync(join(scratch, "zot-1.2.3-windows-x64", "zot")).mode & 0o777).toBe(0o755);
  });

  it("a corrupted zip entry is refused, not returned", () => {
    const archive = writeZip("r", entries, MTIME);
    archive[40 + "r/zot".length] ^= 0xff; // inside the first entry's deflated data
    expect(() => readZip(archive)).toThrow(/corrupt zip|invalid/);
  });

  it("an entry name ustar cannot hold is refused, not truncated", () => {
    expect(() => writeTarGz("r", [{ name: "x".repeat(120), data: Buffer.alloc(1), mode: 0o644 }], MTIME)).toThrow("too long for ustar");
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
