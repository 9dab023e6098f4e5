// The five release targets: how bun builds each, what its archive is called, and what kind of
// executable it must be.
import { NPM_PACKAGE } from "../lib/package-name.ts";

export interface ReleaseTarget {
  /** `bun build --compile --target=` value. */
  bun: string;
  os: "linux" | "darwin" | "windows";
  arch: "x64" | "arm64";
  /** The file build.ts writes under dist/. */
  built: string;
  /** The binary's name inside the archive. */
  executable: string;
  archive: "tar.gz" | "zip";
  /** What binaryFormat() must find in the binary. */
  format: BinaryFormat;
}

export type BinaryFormat = "ELF x86-64" | "ELF aarch64" | "Mach-O x86-64" | "Mach-O arm64" | "PE32+ x86-64";

function target(os: ReleaseTarget["os"], arch: ReleaseTarget["arch"], format: BinaryFormat): ReleaseTarget {
  const windows = os === "windows";
  return {
    bun: `bun-${os}-${arch}`, os, arch, format,
    built: `zot-${os}-${arch}${windows ? ".exe" : ""}`,
    executable: windows ? "zot.exe" : "zot",
    archive: windows ? "zip" : "tar.gz",
  };
}

export const RELEASE_TARGETS: readonly ReleaseTarget[] = [
  target("linux", "x64", "ELF x86-64"),
  target("linux", "arm64", "ELF aarch64"),
  target("darwin", "x64", "Mach-O x86-64"),
  target("darwin", "arm64", "Mach-O arm64"),
  target("windows", "x64", "PE32+ x86-64"),
];

/** `zot-<version>-<os>-<arch>`: the archive's name without extension, and its top folder. */
export function archiveStem(version: string, t: ReleaseTarget): string {
  return `zot-${version}-${t.os}-${t.arch}`;
}

export function archiveName(version: string, t: ReleaseTarget): string {
  return `${archiveStem(version, t)}.${t.archive}`;
}

/** The target of the machine this runs on, if zot releases one. */
export function hostTarget(platform: string = process.platform, arch: string = process.arch): ReleaseTarget | undefined {
  const os = platform === "win32" ? "windows" : platform;
  return RELEASE_TARGETS.find((t) => t.os === os && t.arch === arch);
}

/** The file `npm pack` writes for the package: `@scope/name` becomes `scope-name-<version>.tgz`. */
export function npmTarballName(version: string): string {
  return `${NPM_PACKAGE.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}
