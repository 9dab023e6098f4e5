// release:check — what dist/release/ holds: every file under SHA256SUMS and matching it, each
// target's archive with its binary (of the right executable format), README and LICENSE, the
// build-info stamp of the host binary, and an npm tarball without tests or fixtures.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { binaryFormat } from "../../release/binary-format.ts";
import { parseSums, sha256 } from "../../release/checksums.ts";
import { archiveName, archiveStem, hostTarget, npmTarballName, RELEASE_TARGETS } from "../../release/targets.ts";
import { ROOT } from "../e2e/support.ts";
import { readArchive, readTarGz } from "./archive-reader.ts";
import { extractArchive, REAL_RELEASE_DIR } from "./support.ts";

const dir = REAL_RELEASE_DIR!;
const scratch = mkdtempSync(join(tmpdir(), "zot-release-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the release folder", () => {
  it("SHA256SUMS lists every other file of the release, and every checksum matches", () => {
    const sums = parseSums(readFileSync(join(dir, "SHA256SUMS"), "utf8"));
    const files = readdirSync(dir).filter((f) => f !== "SHA256SUMS").sort();
    expect([...sums.keys()].sort()).toEqual(files);
    expect(files).toEqual(expect.arrayContaining([...RELEASE_TARGETS.map((t) => archiveName(ZOT_VERSION, t)), npmTarballName(ZOT_VERSION), "install.sh"]));
    for (const f of files) expect(sha256(readFileSync(join(dir, f))), f).toBe(sums.get(f));
  });

  it.each(RELEASE_TARGETS.map((t) => ({ ...t, file: archiveName(ZOT_VERSION, t) })))(
    "$file holds an executable $executable ($format), README.md and LICENSE",
    (t) => {
      const entries = readArchive(join(dir, t.file));
      const stem = archiveStem(ZOT_VERSION, t);
      expect(entries.map((e) => e.name)).toEqual([`${stem}/${t.executable}`, `${stem}/README.md`, `${stem}/LICENSE`]);
      const [binary, readme, license] = entries;
      expect(binaryFormat(binary!.data.subarray(0, 4096))).toBe(t.format);
      expect(binary!.mode & 0o111).toBe(0o111);
      expect(Buffer.from(readme!.data).equals(readFileSync(join(ROOT, "README.md")))).toBe(true);
      expect(Buffer.from(license!.data).toString("utf8")).toContain("MIT License");
    },
  );

  it("the host binary prints the bare version, and with --verbose its commit, build date, target and runtime", () => {
    const host = hostTarget()!;
    extractArchive(join(dir, archiveName(ZOT_VERSION, host)), scratch);
    const binary = join(scratch, archiveStem(ZOT_VERSION, host), host.executable);
    expect(execFileSync(binary, ["--version"], { encoding: "utf8" })).toBe(`${ZOT_VERSION}\n`);
    const lines = execFileSync(binary, ["--version", "--verbose"], { encoding: "utf8" }).trimEnd().split("\n");
    expect(lines[0]).toBe(ZOT_VERSION);
    expect(Object.fromEntries(lines.slice(1).map((l) => l.split(": ")))).toEqual({
      commit: expect.stringMatching(/^[0-9a-f]{12}$/),
      built: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      target: host.bun,
      runtime: expect.stringMatching(/^bun \d+\.\d+\.\d+/),
    });
  });

  it("the npm tarball ships the CLI bundle, the library with its types and the Python SDK, and no tests or fixtures", () => {
    const names = readTarGz(join(dir, npmTarballName(ZOT_VERSION))).map((e) => e.name.replace(/^package\//, ""));
    expect(names).toEqual(expect.arrayContaining([
      "package.json", "README.md", "LICENSE", "dist/zot.mjs", "dist/mod.js", "dist/types/mod.d.ts", "sdk/python/zot_ext.py",
    ]));
    expect(names.filter((n) => /^(test|examples|bench|demo|lib|node_modules)\/|fixtures|\.test\.ts$|(?<!\.d)\.ts$/.test(n))).toEqual([]);
    expect(names.filter((n) => /^dist\/zot-|^dist\/release\//.test(n))).toEqual([]);
  });
});
