// release:check — the npm tarball for its two audiences, installed with --offline (it has no
// dependencies: the CLI and the library are bundles): a global install whose `zot` runs on this Node, and a project
// that imports the SDK from plain Node ESM, type-checks against its declarations, and is itself
// an extension the globally installed zot starts.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { ROOT } from "../e2e/support.ts";
import { NPM_PACKAGE } from "../../lib/package-name.ts";
import { npmTarballName } from "../../release/targets.ts";
import { REAL_RELEASE_DIR } from "./support.ts";

const run = promisify(execFile);
const tarball = join(REAL_RELEASE_DIR!, npmTarballName(ZOT_VERSION));
const scratch = mkdtempSync(join(tmpdir(), "zot-npm-check-"));
const prefix = join(scratch, "global");
const consumer = join(scratch, "consumer");
const home = join(scratch, "home");
/** This Node first on PATH, so `#!/usr/bin/env node` and npm use it. */
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, ZOT_HOME: home, NO_COLOR: "1", npm_config_update_notifier: "false" };
const npmInstall = ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"];

beforeAll(async () => {
  mkdirSync(consumer, { recursive: true });
  mkdirSync(home);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  // Sequential: two npm processes on one cache can race.
  await run("npm", [...npmInstall, "--global", "--prefix", prefix, tarball], { env });
  await run("npm", [...npmInstall, tarball], { cwd: consumer, env });
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(npmTarballName(ZOT_VERSION), { timeout: 60_000 }, () => {
  const zot = join(prefix, "bin", "zot");

  it(`installed globally, zot --version runs on Node ${process.versions.node} (20 or newer)`, async () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(20);
    const { stdout } = await run(zot, ["--version", "--verbose"], { env });
    expect(stdout).toMatch(new RegExp(`^${ZOT_VERSION.replaceAll(".", "\\.")}\ncommit: [0-9a-f]{12}\n[^]*target: node\nruntime: node v${process.versions.node}\n$`));
  });

  it(`a project imports createExtension from ${NPM_PACKAGE} in plain Node ESM and runs as an extension of the global zot`, async () => {
    writeFileSync(join(consumer, "extension.json"), JSON.stringify({ name: "consumer", version: "1.0.0", exec: "./main.mjs", language: "javascript" }));
    writeFileSync(join(consumer, "main.mjs"), [
      "#!/usr/bin/env node",
      `import { createExtension, textResult, ZOT_VERSION } from ${JSON.stringify(NPM_PACKAGE)};`,
      'const ext = createExtension({ name: "consumer", version: "1.0.0" });',
      'ext.tool("zot_version", { description: "The SDK version.", schema: { type: "object", properties: {} } }, () => textResult(ZOT_VERSION));',
      "await ext.run();",
      "",
    ].join("\n"));
    chmodSync(join(consumer, "main.mjs"), 0o755);
    writeFileSync(join(consumer, "probe.mjs"), `import * as zot from ${JSON.stringify(NPM_PACKAGE)};\nconsole.log(JSON.stringify([typeof zot.createExtension, typeof zot.createZot, zot.ZOT_VERSION]));\n`);
    const probe = await run(process.execPath, ["probe.mjs"], { cwd: consumer, env });
    expect(JSON.parse(probe.stdout)).toEqual(["function", "function", ZOT_VERSION]);

    const { stdout } = await run(zot, ["ext", "doctor", "--json", "-e", consumer], { cwd: consumer, env });
    const report = JSON.parse(stdout);
    expect(report.ok).toBe(true);
    expect(report.extensions).toEqual([expect.objectContaining({ name: "consumer", status: "ok", ready: "ready" })]);
    expect(report.extensions[0].tools.map((t: { name: string }) => t.name)).toEqual(["zot_version"]);
  });

  it("TypeScript in that project type-checks against the package's declarations, and they are not `any`", async () => {
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true,
        skipLibCheck: false, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")],
      },
      files: ["check.ts"],
    }));
    writeFileSync(join(consumer, "check.ts"), [
      `import { createExtension, textResult, ZOT_VERSION, type ToolResult, type Zot } from ${JSON.stringify(NPM_PACKAGE)};`,
      'const ext = createExtension({ name: "typed", version: "1.0.0" });',
      "const version: string = ZOT_VERSION;",
      'const result: ToolResult = textResult("ok");',
      "// @ts-expect-error: an extension needs a name",
      'createExtension({ version: "1.0.0" });',
      "export type Embedded = Zot;",
      "export { ext, version, result };",
      "",
    ].join("\n"));
    const tsc = await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", consumer], { cwd: consumer, env })
      .catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
    expect(tsc.stdout).toBe("");
  }, 300_000);
});
