// install.sh, run by dash (POSIX sh) against a loopback server laid out like GitHub Releases.
// Under npm test the release is a stub made with the real archive code; under release:check it
// is dist/release/ itself, so the binary installed is the one that ships.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { archiveName, hostTarget } from "../../release/targets.ts";
import { ROOT } from "../e2e/support.ts";
import { makeStubRelease, REAL_RELEASE_DIR, serveRelease, type ReleaseServer } from "./support.ts";

const INSTALL_SH = join(ROOT, "install.sh");
/** dash where it exists (Debian's /bin/sh), else the system sh: never bash. */
const SHELL = existsSync("/usr/bin/dash") ? "/usr/bin/dash" : "/bin/sh";
const host = hostTarget();
const scratch = mkdtempSync(join(tmpdir(), "zot-install-test-"));
const releaseDir = REAL_RELEASE_DIR ?? makeStubRelease(ZOT_VERSION);
let server: ReleaseServer;
let world = 0;

beforeAll(async () => {
  server = await serveRelease(releaseDir, ZOT_VERSION);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
  if (!REAL_RELEASE_DIR) rmSync(releaseDir, { recursive: true, force: true });
});

interface Run { code: number | null; stdout: string; stderr: string }

/** A fresh $HOME; install.sh runs with only PATH, HOME and the given variables. */
function freshHome(): string {
  const home = join(scratch, `home-${++world}`);
  mkdirSync(home);
  return home;
}

function install(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(SHELL, [INSTALL_SH, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

const versionOf = (binary: string) => execFileSync(binary, ["--version"], { encoding: "utf8" });

describe.runIf(host && host.archive === "tar.gz")(`install.sh under ${SHELL}`, () => {
  const archive = archiveName(ZOT_VERSION, host!);

  it("installs the latest release into ~/.local/bin after checking SHA256SUMS, and says how to put it on PATH", async () => {
    const home = freshHome();
    const r = await install([], { HOME: home, ZOT_INSTALL_BASE: server.url });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const bin = join(home, ".local", "bin");
    expect(versionOf(join(bin, "zot"))).toBe(`${ZOT_VERSION}\n`);
    expect(readdirSync(bin)).toEqual(["zot"]);
    expect(r.stdout).toContain(`installed zot ${ZOT_VERSION} to ${bin}/zot`);
    expect(r.stdout).toContain(`export PATH="${bin}:$PATH"`);
    expect(server.requests).toEqual(expect.arrayContaining(["/latest/download/SHA256SUMS", `/latest/download/${archive}`]));
  });

  it("--version X installs that release from its own folder into ZOT_INSTALL_DIR, with no PATH hint when it is on PATH", async () => {
    const dir = join(freshHome(), "tools");
    const r = await install(["--version", `v${ZOT_VERSION}`], {
      HOME: scratch, ZOT_INSTALL_DIR: dir, ZOT_INSTALL_BASE: `${server.url}/`, PATH: `${dir}:${process.env.PATH}`,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(versionOf(join(dir, "zot"))).toBe(`${ZOT_VERSION}\n`);
    expect(r.stdout).not.toContain("export PATH");
    expect(server.requests).toContain(`/download/v${ZOT_VERSION}/${archive}`);
  });

  it("a release that does not exist fails with the URL it tried and installs nothing", async () => {
    const home = freshHome();
    const r = await install(["--version", "9.9.9"], { HOME: home, ZOT_INSTALL_BASE: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not download ${server.url}/download/v9.9.9/SHA256SUMS`);
    expect(existsSync(join(home, ".local"))).toBe(false);
  });

  it("a corrupted archive is refused on its checksum and the previous zot stays in place", async () => {
    // A mirror whose archive lost one byte in transit: SHA256SUMS is the genuine one.
    const mirror = join(scratch, "corrupt-mirror");
    mkdirSync(mirror);
    copyFileSync(join(releaseDir, "SHA256SUMS"), join(mirror, "SHA256SUMS"));
    const bytes = readFileSync(join(releaseDir, archive));
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(join(mirror, archive), bytes);
    const corrupt = await serveRelease(mirror, ZOT_VERSION);

    const dir = join(freshHome(), "bin");
    mkdirSync(dir);
    writeFileSync(join(dir, "zot"), "#!/bin/sh\necho 0.0.1-previous\n");
    chmodSync(join(dir, "zot"), 0o755);
    try {
      const r = await install([], { HOME: scratch, ZOT_INSTALL_DIR: dir, ZOT_INSTALL_BASE: corrupt.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`checksum mismatch for ${archive.replaceAll(".", "\\.")} \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): nothing was installed`));
      expect(versionOf(join(dir, "zot"))).toBe("0.0.1-previous\n");
      expect(readdirSync(dir)).toEqual(["zot"]);
    } finally {
      await corrupt.close();
    }
  });

  /** A PATH whose `uname` reports another machine. */
  function pretendToBe(system: string, machine: string): string {
    const fake = join(scratch, `uname-${system}-${machine}`);
    mkdirSync(fake);
    writeFileSync(join(fake, "uname"), `#!/bin/sh\ncase "$1" in -s) echo ${system} ;; -m) echo ${machine} ;; esac\n`);
    chmodSync(join(fake, "uname"), 0o755);
    return `${fake}:${process.env.PATH}`;
  }

  it("an unknown operating system or architecture gets a clear message before anything is downloaded", async () => {
    const home = freshHome();
    const before = server.requests.length;
    const os = await install([], { HOME: home, ZOT_INSTALL_BASE: server.url, PATH: pretendToBe("SunOS", "sun4v") });
    expect(os.code).toBe(1);
    expect(os.stderr).toContain("zot install: no zot release for this operating system (SunOS): releases are built for Linux and macOS (x64 and arm64)");
    const arch = await install([], { HOME: home, ZOT_INSTALL_BASE: server.url, PATH: pretendToBe("Linux", "riscv64") });
    expect(arch.code).toBe(1);
    expect(arch.stderr).toContain("zot install: no zot release for this architecture (riscv64 on Linux)");
    expect(server.requests.length).toBe(before);
    expect(existsSync(join(home, ".local"))).toBe(false);
  });

  it("a bad argument is a usage error", async () => {
    const r = await install(["--versoin", "1"], { HOME: freshHome(), ZOT_INSTALL_BASE: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("zot install: unknown argument: --versoin (see --help)\n");
  });
});
