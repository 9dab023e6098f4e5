// lib/upgrade against a release laid out like GitHub Releases on a loopback server (or a file://
// folder): real archives made by release/archive.ts holding a small script named like the binary,
// and a real SHA256SUMS. The binary replaced is a copied script whose path is passed in as the
// install (test/release/upgrade-binary.test.ts runs the compiled zot replacing itself).
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installKind } from "../../lib/upgrade/install-kind.ts";
import { upgrade, UpgradeError, type UpgradeOptions } from "../../lib/upgrade/upgrade.ts";
import { writeTarGz, writeZip } from "../../release/archive.ts";
import { renderSums } from "../../release/checksums.ts";
import { archiveName, archiveStem, hostTarget, RELEASE_TARGETS } from "../../release/targets.ts";
import { ROOT, ZOT } from "../e2e/support.ts";
import { makeStubRelease, serveRelease, type ReleaseServer } from "../release/support.ts";

const NEW = "9.9.9";
const host = hostTarget();
const windows = RELEASE_TARGETS.find((t) => t.os === "windows")!;
const scratch = mkdtempSync(join(tmpdir(), "zot-upgrade-test-"));
let release: string;
let server: ReleaseServer;
let world = 0;

/** Adds the Windows zip (its zot.exe a script too) and rewrites SHA256SUMS over every archive. */
function addWindowsZip(dir: string, version: string): void {
  writeZip(join(dir, archiveName(version, windows)), archiveStem(version, windows),
    [{ name: "zot.exe", data: Buffer.from(`#!/bin/sh\necho ${version}\n`), mode: 0o755 }], 1_700_000_000);
  const archives = readdirSync(dir).filter((n) => n !== "SHA256SUMS").sort();
  writeFileSync(join(dir, "SHA256SUMS"), renderSums(archives.map((name) => ({ name, data: readFileSync(join(dir, name)) }))));
}

beforeAll(async () => {
  release = makeStubRelease(NEW);
  addWindowsZip(release, NEW);
  server = await serveRelease(release, NEW);
});
afterAll(async () => {
  await server.close();
  rmSync(release, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** A folder holding an installed "zot" (a script printing 0.0.1), as install.sh would leave it. */
function installed(name = "zot"): { dir: string; binary: string } {
  const dir = join(scratch, `bin-${++world}`);
  mkdirSync(dir);
  const binary = join(dir, name);
  writeFileSync(binary, "#!/bin/sh\necho 0.0.1\n", { mode: 0o755 });
  return { dir, binary };
}

/** A loopback port nothing listens on (one the system just handed out and took back). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, "127.0.0.1", ready));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

const versionOf = (binary: string) => execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();

function options(binary: string, base: string, extra: Partial<UpgradeOptions> = {}): UpgradeOptions & { said: string[] } {
  const said: string[] = [];
  return { install: { kind: "binary", path: binary }, currentVersion: "0.0.1", env: { ZOT_INSTALL_BASE: base }, say: (l) => said.push(l), said, ...extra };
}

describe.runIf(host && host.archive === "tar.gz")("zot upgrade (lib/upgrade)", () => {
  const archive = archiveName(NEW, host!);

  it("--version X downloads that release, checks it against SHA256SUMS and renames the new binary over the old one", async () => {
    const { dir, binary } = installed();
    const o = options(binary, server.url, { version: `v${NEW}` });
    await upgrade(o);
    expect(versionOf(binary)).toBe(NEW);
    expect(statSync(binary).mode & 0o777).toBe(0o755);
    expect(readdirSync(dir)).toEqual(["zot"]);
    expect(o.said).toEqual([`downloading ${server.url}/download/v${NEW}/${archive}`, `upgraded zot 0.0.1 to ${NEW} at ${binary}`]);
    expect(server.requests).toEqual(expect.arrayContaining([`/download/v${NEW}/SHA256SUMS`, `/download/v${NEW}/${archive}`]));
  });

  it("with no --version it takes the latest release, whose version it reads from SHA256SUMS", async () => {
    const { binary } = installed();
    const o = options(binary, `${server.url}/`);
    await upgrade(o);
    expect(versionOf(binary)).toBe(NEW);
    expect(o.said.at(-1)).toBe(`upgraded zot 0.0.1 to ${NEW} at ${binary}`);
    expect(server.requests).toEqual(expect.arrayContaining(["/latest/download/SHA256SUMS", `/latest/download/${archive}`]));
  });

  it("refuses a tampered archive on its checksum: nothing replaced, nothing left beside the binary", async () => {
    const mirror = join(scratch, "tampered");
    mkdirSync(mirror);
    copyFileSync(join(release, "SHA256SUMS"), join(mirror, "SHA256SUMS"));
    const bytes = readFileSync(join(release, archive));
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(join(mirror, archive), bytes);
    const tampered = await serveRelease(mirror, NEW);
    const { dir, binary } = installed();
    try {
      const failure = upgrade(options(binary, tampered.url, { version: NEW }));
      await expect(failure).rejects.toThrow(UpgradeError);
      await expect(failure).rejects.toThrow(new RegExp(`^checksum mismatch for ${archive.replaceAll(".", "\\.")} \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): nothing was replaced$`));
      expect(versionOf(binary)).toBe("0.0.1");
      expect(readdirSync(dir)).toEqual(["zot"]);
    } finally {
      await tampered.close();
    }
  });

  it("--dry-run says what it would download and replace, and downloads only SHA256SUMS", async () => {
    const { binary } = installed();
    const before = server.requests.length;
    const o = options(binary, server.url, { version: NEW, dryRun: true });
    await upgrade(o);
    expect(o.said).toEqual([`would download ${server.url}/download/v${NEW}/${archive}, check it against ${server.url}/download/v${NEW}/SHA256SUMS and replace ${binary} (zot 0.0.1) with zot ${NEW}`]);
    expect(server.requests.slice(before)).toEqual([`/download/v${NEW}/SHA256SUMS`]);
    expect(versionOf(binary)).toBe("0.0.1");
  });

  it("a mirror whose SHA256SUMS names an archive with escape sequences in its version is refused, the name shown escaped", async () => {
    const mirror = join(scratch, "escapes");
    const latest = join(mirror, "latest", "download");
    mkdirSync(latest, { recursive: true });
    const evil = `zot-9.9.9\u001b]0;pwned\u0007\u001b[2J\u202e-${host!.os}-${host!.arch}.${host!.archive}`;
    writeFileSync(join(latest, "SHA256SUMS"), `${"0".repeat(64)}  ${evil}\n`);
    const { binary } = installed();
    const o = options(binary, pathToFileURL(mirror).href, { dryRun: true });
    const failure = upgrade(o);
    await expect(failure).rejects.toThrow(UpgradeError);
    const message = await failure.catch((err: Error) => err.message);
    expect(message).toContain("is not a zot release's archive name");
    expect(message).toContain("\\u001b]0;pwned\\u0007");
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(o.said.join("\n")).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(versionOf(binary)).toBe("0.0.1");
  });

  it("does nothing when the running version is already that release, unless --force", async () => {
    const { binary } = installed();
    const o = options(binary, server.url, { currentVersion: NEW });
    await upgrade(o);
    expect(o.said).toEqual([`zot ${NEW} at ${binary} is already the latest release; --force reinstalls it`]);
    expect(versionOf(binary)).toBe("0.0.1");
    await upgrade({ ...o, force: true });
    expect(versionOf(binary)).toBe(NEW);
  });

  it("network errors name the URL and the HTTP status, or the connection error", async () => {
    const { binary } = installed();
    await expect(upgrade(options(binary, server.url, { version: "1.2.3" })))
      .rejects.toThrow(`could not download ${server.url}/download/v1.2.3/SHA256SUMS: HTTP 404 Not Found`);
    const closed = await closedPort();
    await expect(upgrade(options(binary, `http://127.0.0.1:${closed}`)))
      .rejects.toThrow(`could not download http://127.0.0.1:${closed}/latest/download/SHA256SUMS: ECONNREFUSED`);
    await expect(upgrade(options(binary, server.url, { version: "1.2;rm" }))).rejects.toThrow("not a version: 1.2;rm");
    expect(versionOf(binary)).toBe("0.0.1");
  });

  it("a server that stops sending is a failure that names the URL, not a hang", async () => {
    // SHA256SUMS comes whole; the archive's body stops after its first bytes.
    const sums = readFileSync(join(release, "SHA256SUMS"));
    const stalling = createHttpServer((req, res) => {
      if (req.url?.endsWith("/SHA256SUMS")) return void res.end(sums);
      res.writeHead(200, { "content-length": "1000000" });
      res.write("partial");
    });
    await new Promise<void>((ready) => stalling.listen(0, "127.0.0.1", ready));
    const base = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
    const { binary } = installed();
    try {
      await expect(upgrade(options(binary, base, { version: NEW, download: { stallMs: 300 } })))
        .rejects.toThrow(`could not download ${base}/download/v${NEW}/${archive}: no data for 0.3 s`);
      expect(versionOf(binary)).toBe("0.0.1");
    } finally {
      stalling.closeAllConnections();
      await new Promise((done) => stalling.close(done));
    }
  });

  it("reads a file:// mirror, and keeps the old binary when the new one does not run", async () => {
    const mirror = join(scratch, "file-mirror");
    const latest = join(mirror, "latest", "download");
    mkdirSync(latest, { recursive: true });
    const broken = archiveName("8.0.0", host!);
    writeTarGz(join(latest, broken), archiveStem("8.0.0", host!), [{ name: "zot", data: Buffer.from("#!/bin/sh\necho broken >&2\nexit 3\n"), mode: 0o755 }], 1_700_000_000);
    writeFileSync(join(latest, "SHA256SUMS"), renderSums([{ name: broken, data: readFileSync(join(latest, broken)) }]));
    const { dir, binary } = installed();
    await expect(upgrade(options(binary, pathToFileURL(mirror).href)))
      .rejects.toThrow("the downloaded zot does not run on this machine (--version exited with 3: broken): nothing was replaced");
    expect(versionOf(binary)).toBe("0.0.1");
    expect(readdirSync(dir)).toEqual(["zot"]);
  });

  it("the Windows way: the running zot.exe is moved aside, the new one renamed in, leftovers of a previous upgrade removed", async () => {
    const { dir, binary } = installed("zot.exe");
    writeFileSync(join(dir, "zot.exe.old-12345"), "an old binary a previous upgrade could not delete");
    const o = options(binary, server.url, { version: NEW, target: windows, platform: "win32" });
    await upgrade(o);
    expect(versionOf(binary)).toBe(NEW);
    // On Windows the moved-aside binary stays until the next upgrade; elsewhere it can go at once.
    expect(readdirSync(dir)).toEqual(["zot.exe"]);
    expect(server.requests).toContain(`/download/v${NEW}/${archiveName(NEW, windows)}`);
  });

  it("refuses a zot from npm or from a checkout, saying how those upgrade", async () => {
    const said: string[] = [];
    const base = { currentVersion: "0.0.1", env: { ZOT_INSTALL_BASE: server.url }, say: (l: string) => said.push(l) };
    await expect(upgrade({ ...base, install: { kind: "npm", path: "/usr/lib/node_modules/@zot-cli/zot" } }))
      .rejects.toThrow("this zot was installed with npm (/usr/lib/node_modules/@zot-cli/zot): upgrade it with npm install -g @zot-cli/zot@latest");
    await expect(upgrade({ ...base, version: "0.2.0", install: { kind: "npm", path: "/p" } })).rejects.toThrow("npm install -g @zot-cli/zot@0.2.0");
    await expect(upgrade({ ...base, install: { kind: "checkout", path: "/src/zot" } }))
      .rejects.toThrow("this zot runs from a source checkout (/src/zot), not a release binary: update it with git pull && npm ci && npm run build");
    expect(said).toEqual([]);
  });
});

describe("how zot was installed", () => {
  const node = { versions: { ...process.versions, bun: undefined }, execPath: "/usr/bin/node" } as unknown as typeof process;
  it("a compiled binary is process.execPath under bun with a name that is not bun's", () => {
    const bun = { versions: { ...process.versions, bun: "1.4.5" }, execPath: "/home/u/.local/bin/zot" } as unknown as typeof process;
    expect(installKind(bun, "/$bunfs/root/chunk.js")).toEqual({ kind: "binary", path: "/home/u/.local/bin/zot" });
    expect(installKind({ ...bun, execPath: "/usr/bin/bun" }, "/src/zot/lib/upgrade/install-kind.ts")).toEqual({ kind: "checkout", path: "/src/zot" });
  });
  it("the bundle inside node_modules is npm's (scoped or not); anywhere else it is a checkout", () => {
    expect(installKind(node, "/usr/lib/node_modules/@zot-cli/zot/dist/chunks/upgrade-1.mjs")).toEqual({ kind: "npm", path: "/usr/lib/node_modules/@zot-cli/zot" });
    expect(installKind(node, "/p/node_modules/zot-fork/dist/zot.mjs")).toEqual({ kind: "npm", path: "/p/node_modules/zot-fork" });
    expect(installKind(node, "/src/zot/dist/chunks/upgrade-1.mjs")).toEqual({ kind: "checkout", path: "/src/zot" });
  });
});

describe("zot upgrade (the CLI)", () => {
  const run = promisify(execFile);
  it("from a checkout's dist/zot.mjs it refuses with exit 1 and says how to update", async () => {
    const failure = await run(process.execPath, [ZOT, "upgrade", "--dry-run"], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1, stderr: `zot upgrade: this zot runs from a source checkout (${ROOT}), not a release binary: update it with git pull && npm ci && npm run build, or install the binary with install.sh\n` });
  });
  it("an unknown flag is a usage error (exit 2); --help prints the usage on stdout", async () => {
    const failure = await run(process.execPath, [ZOT, "upgrade", "--versoin", "1"], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining("zot upgrade: Unknown option '--versoin'") });
    const help = await run(process.execPath, [ZOT, "upgrade", "--help"], { cwd: ROOT });
    expect(help.stdout).toMatch(/^Replaces this zot binary/);
    expect(help.stdout).toContain("USAGE zot upgrade [--version X] [--dry-run] [--force]");
    expect(help.stdout).toContain("EXAMPLE");
  });
});
