// release:check — `zot upgrade` with the real release: the host's binary from its archive
// reinstalls itself (--force, same version) from a loopback server serving dist/release/, so the
// archive names, SHA256SUMS and the binary's path inside the archive are what upgrade reads.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { archiveName, archiveStem, hostTarget } from "../../release/targets.ts";
import { extractArchive, REAL_RELEASE_DIR, serveRelease, type ReleaseServer } from "./support.ts";

// Asynchronous: the release server runs in this process, and a synchronous spawn would block it.
const run = promisify(execFile);
const host = hostTarget()!;
const scratch = mkdtempSync(join(tmpdir(), "zot-upgrade-check-"));
const zot = join(scratch, archiveStem(ZOT_VERSION, host), host.executable);
let server: ReleaseServer;

beforeAll(async () => {
  extractArchive(join(REAL_RELEASE_DIR!, archiveName(ZOT_VERSION, host)), scratch);
  server = await serveRelease(REAL_RELEASE_DIR!, ZOT_VERSION);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe(`zot upgrade with the ${archiveName(ZOT_VERSION, host)} of this release`, () => {
  it("finds the running version is the latest, and --force reinstalls it from the release archive", async () => {
    const env = { PATH: process.env.PATH ?? "", HOME: scratch, ZOT_HOME: join(scratch, "home"), ZOT_INSTALL_BASE: server.url };
    const latest = await run(zot, ["upgrade"], { env, encoding: "utf8" });
    expect(latest.stdout).toBe(`zot ${ZOT_VERSION} at ${zot} is already the latest release; --force reinstalls it\n`);
    const forced = await run(zot, ["upgrade", "--force", "--version", ZOT_VERSION], { env, encoding: "utf8" });
    expect(forced.stderr).toBe("");
    expect(forced.stdout).toBe(`downloading ${server.url}/download/v${ZOT_VERSION}/${archiveName(ZOT_VERSION, host)}\nupgraded zot ${ZOT_VERSION} to ${ZOT_VERSION} at ${zot}\n`);
    expect(execFileSync(zot, ["--version"], { encoding: "utf8" })).toBe(`${ZOT_VERSION}\n`);
    expect(readdirSync(join(scratch, archiveStem(ZOT_VERSION, host))).sort()).toEqual(["LICENSE", "README.md", host.executable].sort());
  });
});
