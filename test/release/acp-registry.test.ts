// The ACP registry's agent.json that `npm run release` writes: each platform points at the archive
// the release writes for it, with the binary's path inside that archive, started as `zot acp`.
import { describe, expect, it } from "vitest";
import { acpRegistryEntry } from "../../release/acp-registry.ts";
import { archiveName, archiveStem, RELEASE_TARGETS } from "../../release/targets.ts";
import { NPM_PACKAGE } from "../../lib/package-name.ts";

describe("the ACP registry entry", () => {
  const entry = acpRegistryEntry("1.2.3") as { id: string; name: string; version: string; description: string;
    distribution: { binary: Record<string, { archive: string; cmd: string; args: string[] }>; npx: { package: string; args: string[] } } };

  it("has the registry's required fields", () => {
    expect(entry).toMatchObject({ id: "zot", name: "zot", version: "1.2.3", license: "MIT" });
    expect(entry.description.length).toBeGreaterThan(0);
  });

  it("names the release's archive of each of the five targets, the binary inside it, and the acp argument", () => {
    expect(Object.keys(entry.distribution.binary).sort()).toEqual(["darwin-aarch64", "darwin-x86_64", "linux-aarch64", "linux-x86_64", "windows-x86_64"]);
    const byArchive = new Map(Object.values(entry.distribution.binary).map((b) => [b.archive.split("/").pop(), b]));
    for (const t of RELEASE_TARGETS) {
      const b = byArchive.get(archiveName("1.2.3", t));
      expect(b, t.bun).toBeDefined();
      expect(b!.archive).toContain("/download/v1.2.3/");
      expect(b!.cmd).toBe(`./${archiveStem("1.2.3", t)}/${t.executable}`);
      expect(b!.args).toEqual(["acp"]);
    }
  });

  it("offers the npm package of the same version through npx", () => {
    expect(entry.distribution.npx).toEqual({ package: `${NPM_PACKAGE}@1.2.3`, args: ["acp"] });
  });
});
