// `zot upgrade` run by the compiled binary itself (compiled as build.ts does, about 3 s), against
// a loopback release laid out like GitHub Releases whose archives hold a small script named
// `zot`: the binary replaces itself with it, and refuses a tampered archive.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { COMPILE_FLAGS } from "../../release/compile-flags.ts";
import { archiveName, hostTarget } from "../../release/targets.ts";
import { ROOT } from "../e2e/support.ts";
import { runClosed, type ClosedRun } from "../support/run-closed.ts";
import { makeStubRelease, serveRelease, type ReleaseServer } from "./support.ts";

const NEW = "9.9.9";
const host = hostTarget();
const work = mkdtempSync(join(tmpdir(), "zot-upgrade-binary-"));
const compiled = join(work, "compiled-zot");
let release: string;
let server: ReleaseServer;
let tampered: ReleaseServer;

beforeAll(async () => {
  const built = spawnSync(join(ROOT, "node_modules", ".bin", "bun"), ["build", "bin/zot.ts", ...COMPILE_FLAGS, `--outfile=${compiled}`],
    { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`could not compile zot:\n${built.stderr}`);
  release = makeStubRelease(NEW);
  server = await serveRelease(release, NEW);
  const mirror = join(work, "tampered");
  mkdirSync(mirror);
  copyFileSync(join(release, "SHA256SUMS"), join(mirror, "SHA256SUMS"));
  const archive = archiveName(NEW, host!);
  const bytes = readFileSync(join(release, archive));
  bytes[bytes.length >> 1] ^= 0xff;
  writeFileSync(join(mirror, archive), bytes);
  tampered = await serveRelease(mirror, NEW);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await tampered?.close();
  rmSync(release, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

let installs = 0;
/** A copy of the compiled zot in a folder of its own, as install.sh leaves it. */
function installedCopy(): { dir: string; zot: string } {
  const dir = join(work, `bin-${++installs}`);
  mkdirSync(dir);
  const zot = join(dir, "zot");
  copyFileSync(compiled, zot);
  return { dir, zot };
}

function run(zot: string, args: string[], base: string): Promise<ClosedRun> {
  return runClosed(zot, args, { env: { PATH: process.env.PATH ?? "", HOME: work, ZOT_HOME: join(work, "home"), ZOT_INSTALL_BASE: base } });
}

const versionOf = (zot: string) => execFileSync(zot, ["--version"], { encoding: "utf8" }).trim();

describe.runIf(host && host.archive === "tar.gz")("the compiled zot upgrading itself", { timeout: 30_000 }, () => {
  const archive = archiveName(NEW, host!);

  it("zot upgrade --version X replaces the running binary with that release's, after checking SHA256SUMS", async () => {
    const { dir, zot } = installedCopy();
    expect(versionOf(zot)).toBe(ZOT_VERSION);
    const r = await run(zot, ["upgrade", "--version", NEW], server.url);
    expect(r).toEqual({ code: 0, stderr: "",
      stdout: `downloading ${server.url}/download/v${NEW}/${archive}\nupgraded zot ${ZOT_VERSION} to ${NEW} at ${zot}\n` });
    expect(versionOf(zot)).toBe(NEW);
    expect(readdirSync(dir)).toEqual(["zot"]);
  });

  it("started through a symlink, it replaces the file the link points at and leaves the link", async () => {
    const { dir, zot } = installedCopy();
    const link = join(work, `link-${installs}`);
    symlinkSync(zot, link);
    const r = await run(link, ["upgrade", "--version", NEW], server.url);
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining(`upgraded zot ${ZOT_VERSION} to ${NEW} at ${zot}\n`) });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(versionOf(link)).toBe(NEW);
    expect(readdirSync(dir)).toEqual(["zot"]);
  });

  it("--dry-run says what it would do and changes nothing", async () => {
    const { zot } = installedCopy();
    const r = await run(zot, ["upgrade", "--dry-run"], server.url);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`would download ${server.url}/latest/download/${archive}, check it against ${server.url}/latest/download/SHA256SUMS and replace ${zot} (zot ${ZOT_VERSION}) with zot ${NEW}\n`);
    expect(versionOf(zot)).toBe(ZOT_VERSION);
  });

  it("a tampered archive is refused on its checksum: exit 1, a clear message, the binary untouched", async () => {
    const { dir, zot } = installedCopy();
    const r = await run(zot, ["upgrade", "--version", NEW], tampered.url);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^zot upgrade: checksum mismatch for ${archive.replaceAll(".", "\\.")} \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): nothing was replaced\n$`));
    expect(versionOf(zot)).toBe(ZOT_VERSION);
    expect(readdirSync(dir)).toEqual(["zot"]);
  });
});
