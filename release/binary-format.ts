// Which kind of executable a file is, from its header: enough to tell the five release targets
// apart (and to notice a build that produced the wrong one).
import type { BinaryFormat } from "./targets.ts";

const ELF_MACHINES: Record<number, BinaryFormat> = { 0x3e: "ELF x86-64", 0xb7: "ELF aarch64" };
const MACHO_CPUS: Record<number, BinaryFormat> = { 0x01000007: "Mach-O x86-64", 0x0100000c: "Mach-O arm64" };

/** The format of `bytes` (the first few KiB of a file are enough), or a description of what it is not. */
export function binaryFormat(bytes: Uint8Array): BinaryFormat | `unknown: ${string}` {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b.length >= 20 && b.readUInt32BE(0) === 0x7f454c46) {
    if (b[4] !== 2) return "unknown: 32-bit ELF";
    const machine = b[5] === 1 ? b.readUInt16LE(18) : b.readUInt16BE(18);
    return ELF_MACHINES[machine] ?? `unknown: ELF machine 0x${machine.toString(16)}`;
  }
  if (b.length >= 8 && b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return MACHO_CPUS[cpu] ?? `unknown: Mach-O cpu 0x${cpu.toString(16)}`;
  }
  if (b.length >= 64 && b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 26 > b.length || b.readUInt32BE(pe) !== 0x50450000) return "unknown: MZ without a PE header";
    const machine = b.readUInt16LE(pe + 4);
    const optionalMagic = b.readUInt16LE(pe + 24);
    if (optionalMagic !== 0x20b) return "unknown: PE32, not PE32+";
    return machine === 0x8664 ? "PE32+ x86-64" : `unknown: PE32+ machine 0x${machine.toString(16)}`;
  }
  return "unknown: not an executable";
}
