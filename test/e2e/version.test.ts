// `zot --version` is the bare version whatever the build; --verbose adds the build-info stamp
// build.ts puts into the bundle, and says so plainly when zot runs from source.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { currentRuntime } from "../../lib/build-info.ts";
import { isVersionRequest } from "../../lib/cli/version-text.ts";
import { ZOT_VERSION } from "../../lib/version.ts";
import { makeWorld, ROOT } from "./support.ts";

describe("zot --version", () => {
  it("stays the bare version, as -v too, and --verbose adds commit, build date, target node and this runtime", async () => {
    const world = await makeWorld();
    try {
      for (const flag of ["--version", "-v"]) expect(await world.run([flag])).toMatchObject({ code: 0, stdout: `${ZOT_VERSION}\n`, stderr: "" });
      for (const argv of [["--version", "--verbose"], ["--verbose", "-v"]]) {
        const r = await world.run(argv);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(new RegExp(
          `^${ZOT_VERSION.replaceAll(".", "\\.")}\ncommit: ([0-9a-f]{12}|unknown)\nbuilt: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\ntarget: node\nruntime: node v${process.versions.node}\n$`));
      }
      // Through the full root command too (another flag before it).
      const late = await world.run(["--no-session", "--version", "--verbose"]);
      expect(late.stdout).toContain("target: node\n");
    } finally {
      await world.close();
    }
  });

  it("run from source, --verbose says it is not a build", () => {
    const out = execFileSync(join(ROOT, "node_modules", ".bin", "bun"), [join(ROOT, "bin", "zot.ts"), "--version", "--verbose"], { encoding: "utf8" });
    expect(out).toMatch(new RegExp(`^${ZOT_VERSION.replaceAll(".", "\\.")}\ncommit: unknown \\(run from source\\)\nbuilt: unknown \\(run from source\\)\ntarget: source\nruntime: bun \\d+\\.\\d+\\.\\d+\n$`));
  });

  it("names the runtime from its versions, Bun and Deno before Node", () => {
    expect(currentRuntime({ node: "20.1.0", bun: "1.4.5" })).toBe("bun 1.4.5");
    expect(currentRuntime({ node: "20.1.0", deno: "2.9.6" })).toBe("deno 2.9.6");
    expect(currentRuntime({ node: "20.1.0" })).toBe("node v20.1.0");
  });

  it("only --version/-v, with or without --verbose, is the fast version request", () => {
    expect(isVersionRequest(["--version"])).toBe(true);
    expect(isVersionRequest(["--verbose", "-v"])).toBe(true);
    expect(isVersionRequest(["--verbose"])).toBe(false);
    expect(isVersionRequest(["-p", "--version"])).toBe(false);
    expect(isVersionRequest([])).toBe(false);
  });
});
