// `zot upgrade`: the release binary replaces itself with the latest release (or --version X)
// for this machine, downloaded from where install.sh downloads it (ZOT_INSTALL_BASE honoured, the
// same latest/download/… and download/v<version>/… layout) and checked against SHA256SUMS first.
// The archive names and the checksum format come from release/, which writes them.
import { parseSums, sha256 } from "../../release/checksums.ts";
import { archiveName, archiveStem, hostTarget, type ReleaseTarget } from "../../release/targets.ts";
import { NPM_PACKAGE } from "../package-name.ts";
import { fileFromTarGz, fileFromZip } from "./archive-binary.ts";
import { download, type DownloadOptions } from "./download.ts";
import type { InstallKind } from "./install-kind.ts";
import { removeLeftovers, removeStaged, stageBinary, swapIn, versionOf } from "./replace-binary.ts";

/** Where install.sh downloads from; ZOT_INSTALL_BASE replaces it. */
export const RELEASES = "https://github.com/zot-cli/zot/releases";

export interface UpgradeOptions {
  /** A release version (`0.2.0`, a leading `v` is dropped); the latest release when absent. */
  version?: string;
  dryRun?: boolean;
  /** Reinstall even when that version is the one running. */
  force?: boolean;
  /** How this zot was installed; tests pass a binary path of their own here. */
  install: InstallKind;
  currentVersion: string;
  env: NodeJS.ProcessEnv;
  /** The release target to download; this machine's by default. */
  target?: ReleaseTarget;
  platform?: NodeJS.Platform;
  download?: DownloadOptions;
  say: (line: string) => void;
}

/** A refusal or failure, said as it is; nothing was replaced. */
export class UpgradeError extends Error {}

export async function upgrade(options: UpgradeOptions): Promise<void> {
  const { install, currentVersion, say } = options;
  if (install.kind === "npm") {
    throw new UpgradeError(`this zot was installed with npm (${install.path}): upgrade it with npm install -g ${NPM_PACKAGE}@${options.version ?? "latest"}`);
  }
  if (install.kind === "checkout") {
    throw new UpgradeError(`this zot runs from a source checkout (${install.path}), not a release binary: update it with git pull && npm ci && npm run build, or install the binary with install.sh`);
  }
  const platform = options.platform ?? process.platform;
  const target = options.target ?? hostTarget(platform);
  if (!target) throw new UpgradeError(`zot releases no binary for ${platform}-${process.arch}`);
  const version = options.version?.replace(/^v/, "");
  if (version !== undefined && !VERSION.test(version)) throw new UpgradeError(`not a version: ${options.version}`);

  const base = (options.env.ZOT_INSTALL_BASE || RELEASES).replace(/\/+$/, "");
  const folder = version ? `${base}/download/v${version}` : `${base}/latest/download`;
  const sums = await checksums(`${folder}/SHA256SUMS`, options.download);
  const release = pickArchive(sums, target, version);
  if (!release) throw new UpgradeError(`the release at ${folder} has no archive for ${target.os}-${target.arch}`);
  const url = `${folder}/${release.name}`;

  if (release.version === currentVersion && !options.force) {
    say(`zot ${currentVersion} at ${install.path} is already ${version ? "that release" : "the latest release"}; --force reinstalls it`);
    return;
  }
  if (options.dryRun) {
    say(`would download ${url}, check it against ${folder}/SHA256SUMS and replace ${install.path} (zot ${currentVersion}) with zot ${release.version}`);
    return;
  }

  say(`downloading ${url}`);
  const archive = await download(url, options.download);
  const actual = sha256(archive);
  if (actual !== release.sum) {
    throw new UpgradeError(`checksum mismatch for ${release.name} (expected ${release.sum}, got ${actual}): nothing was replaced`);
  }
  const inner = `${archiveStem(release.version, target)}/${target.executable}`;
  let binary: Uint8Array | undefined;
  try {
    binary = target.archive === "zip" ? fileFromZip(archive, inner) : fileFromTarGz(archive, inner);
  } catch (err) {
    throw new UpgradeError(`could not unpack ${release.name} (${(err as Error).message}): nothing was replaced`);
  }
  if (!binary) throw new UpgradeError(`${release.name} holds no ${inner}: nothing was replaced`);

  removeLeftovers(install.path);
  let staged: string;
  try {
    staged = stageBinary(install.path, binary, platform);
  } catch (err) {
    throw new UpgradeError(`cannot write beside ${install.path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): nothing was replaced`);
  }
  let installed: string;
  try {
    installed = versionOf(staged);
    swapIn(staged, install.path, platform);
  } catch (err) {
    removeStaged(staged);
    throw new UpgradeError(`${(err as Error).message}: nothing was replaced`);
  }
  say(`upgraded zot ${currentVersion} to ${installed} at ${install.path}`);
}

async function checksums(url: string, options: DownloadOptions | undefined): Promise<Map<string, string>> {
  const text = new TextDecoder().decode(await download(url, options));
  try {
    return parseSums(text);
  } catch (err) {
    throw new UpgradeError(`${url} is not a checksum list (${(err as Error).message})`);
  }
}

/** This target's archive in SHA256SUMS: `version`'s, or the only one there (the latest release). */
function pickArchive(sums: Map<string, string>, target: ReleaseTarget, version: string | undefined):
  { name: string; version: string; sum: string } | undefined {
  if (version) {
    const name = archiveName(version, target);
    const sum = sums.get(name);
    return sum ? { name, version, sum } : undefined;
  }
  const suffix = `-${target.os}-${target.arch}.${target.archive}`;
  for (const [name, sum] of sums) {
    if (!name.startsWith("zot-") || !name.endsWith(suffix)) continue;
    const found = name.slice(4, -suffix.length);
    // The version becomes part of what zot prints and of a path inside the archive: a version's characters only.
    if (!VERSION.test(found)) throw new UpgradeError(`SHA256SUMS lists ${visible(name)}, which is not a zot release's archive name: nothing was downloaded`);
    return { name, version: found, sum };
  }
  return undefined;
}

/** What a release version may hold. */
const VERSION = /^[0-9A-Za-z.+-]+$/;

/** `text` with everything but printable ASCII written as \u escapes, so a mirror's bytes cannot drive the terminal. */
const visible = (text: string): string =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
