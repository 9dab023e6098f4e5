// The npm package as `npm pack` makes it, installed from its tarball into a scratch project with
// --offline and an empty npm cache (so it can need no other package), then used from Node, Bun
// and Deno. The suite's global setup builds what the package ships (`build.ts --node-only
// --package`), so this packs with --ignore-scripts rather than rebuilding dist/ under other tests.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { templateLiteral } from "../../lib/extensions/authoring/templates/generate-ts-sdk.ts";
import { TS_SDK_BUNDLE } from "../../lib/extensions/authoring/templates/ts-sdk.generated.ts";
import { NPM_PACKAGE } from "../../lib/package-name.ts";
import { ZOT_VERSION } from "../../lib/version.ts";
import { ROOT } from "../e2e/support.ts";
import { runClosed } from "../support/run-closed.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "zot-packed-test-"));
const consumer = join(scratch, "consumer");
const installed = join(consumer, "node_modules", ...NPM_PACKAGE.split("/"));
const BIN = join(ROOT, "node_modules", ".bin");
/** This Node first on PATH (for `#!/usr/bin/env node`), an npm cache of our own, no update check. */
const env = {
  ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, ZOT_HOME: join(scratch, "home"), NO_COLOR: "1",
  npm_config_cache: join(scratch, "npm-cache"), npm_config_update_notifier: "false",
};
const MAX_PACKED_BYTES = 3 * 2 ** 20;
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** The packages (not built-ins, not relative files) a module's source imports. */
function importedPackages(source: string): string[] {
  const found: string[] = [];
  // Static `import … from "x"` / `export … from "x"`, bare `import "x"`, and `import("x")` with a literal.
  for (const m of source.matchAll(/(?:^|[;\n}])\s*(?:import|export)\b[^"'`;()]*?\bfrom\s*["']([^"']+)["']|(?:^|[;\n])\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith(".") && !builtins.has(spec)) found.push(spec);
  }
  return found;
}


interface PackReport {
  name: string; filename: string; size: number; unpackedSize: number; entryCount: number;
  files: Array<{ path: string }>; bundled: string[];
}
let pack: PackReport;

beforeAll(async () => {
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: ROOT, env });
  pack = (JSON.parse(stdout) as PackReport[])[0]!;
  mkdirSync(consumer);
  mkdirSync(env.ZOT_HOME);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(scratch, pack.filename)], { cwd: consumer, env });
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(`the npm package ${NPM_PACKAGE}`, { timeout: 30_000 }, () => {
  it("has our own name (`zot` on the registry is another project) and package.json agrees with lib/package-name.ts", () => {
    expect(pack.name).toBe(NPM_PACKAGE);
    expect(pack.name).not.toBe("zot");
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).name).toBe(NPM_PACKAGE);
  });

  it(`is at most 3 MB packed, installs no dependency, and holds only bundles, types, the Python SDK and docs`, () => {
    expect(pack.size).toBeLessThanOrEqual(MAX_PACKED_BYTES);
    expect(pack.bundled).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(consumer, "node_modules")).filter((n) => !n.startsWith("."))).toEqual([NPM_PACKAGE.split("/")[0]]);
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE", "dist/zot.mjs", "dist/mod.js",
      "dist/types/mod.d.ts", "dist/types/vendor/valibot.d.ts", "sdk/python/zot_ext.py"]));
    const unexpected = paths.filter((p) => !/^(dist\/(zot\.mjs|mod\.js|chunks\/[^/]+\.mjs|mod-chunks\/[^/]+\.js|types\/.+\.d\.ts)|sdk\/python\/(zot_ext\.py|README\.md)|package\.json|README\.md|LICENSE)$/.test(p));
    expect(unexpected).toEqual([]);
  });

  it("the CLI bundle and the library import nothing but Node built-ins (every package is bundled in)", () => {
    // The CLI carries the vendored SDK as text (for `zot ext new`): that text is not zot's code.
    const vendoredText = templateLiteral(TS_SDK_BUNDLE);
    let vendoredCopies = 0;
    const outside: string[] = [];
    for (const file of pack.files.map((f) => f.path).filter((p) => /\.m?js$/.test(p))) {
      const text = readFileSync(join(installed, file), "utf8");
      const code = text.split(vendoredText);
      vendoredCopies += code.length - 1;
      for (const spec of importedPackages(code.join(""))) outside.push(`${file}: ${spec}`);
    }
    expect(vendoredCopies).toBe(1);
    expect(outside).toEqual([]);
  });

  it("the vendored SDK imports only Node built-ins, and ws only lazily, for ext.serve", () => {
    expect(importedPackages(TS_SDK_BUNDLE)).toEqual(["ws"]);
    expect(TS_SDK_BUNDLE).toContain('await import("ws")');
  });

  it("the installed zot bin runs on Node with nothing else in node_modules", async () => {
    const { stdout } = await run(join(consumer, "node_modules", ".bin", "zot"), ["--version"], { cwd: consumer, env });
    expect(stdout).toBe(`${ZOT_VERSION}\n`);
  });

  it("zot upgrade from the npm package refuses and names the npm command", async () => {
    const r = await runClosed(join(consumer, "node_modules", ".bin", "zot"), ["upgrade"], { cwd: consumer, env });
    expect(r).toEqual({ code: 1, stdout: "",
      stderr: `zot upgrade: this zot was installed with npm (${installed}): upgrade it with npm install -g ${NPM_PACKAGE}@latest\n` });
  });

  const runtimes = [
    { name: "Node", argv: [process.execPath] },
    { name: "Bun", argv: [join(BIN, "bun")] },
    // Deno reads npm packages from ./node_modules with --node-modules-dir=manual (a package.json is there).
    { name: "Deno", argv: [join(BIN, "deno"), "run", "-A", "--node-modules-dir=manual", "--no-lock"] },
  ];

  for (const runtime of runtimes) {
    it(`imports from ${runtime.name}: createExtension, createZot, streamSchema and ZOT_VERSION`, async () => {
      const probe = join(consumer, `probe-${runtime.name}.mjs`);
      writeFileSync(probe, `import * as zot from ${JSON.stringify(NPM_PACKAGE)};\nconsole.log(JSON.stringify([typeof zot.createExtension, typeof zot.createZot, typeof zot.streamSchema.validateStreamLine, zot.ZOT_VERSION]));\n`);
      const [exe, ...args] = runtime.argv;
      const { stdout } = await run(exe!, [...args, probe], { cwd: consumer, env });
      expect(JSON.parse(stdout)).toEqual(["function", "function", "function", ZOT_VERSION]);
    });

    it(`an extension written with the packed SDK runs under ${runtime.name}, started by the installed zot`, async () => {
      const dir = join(consumer, `ext-${runtime.name.toLowerCase()}`);
      mkdirSync(dir);
      const [exe, ...args] = runtime.argv;
      writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: `hello-${runtime.name.toLowerCase()}`, version: "1.0.0", exec: exe, args: [...args, "main.mjs"] }));
      writeFileSync(join(dir, "main.mjs"), [
        `import { createExtension, display } from ${JSON.stringify(NPM_PACKAGE)};`,
        `const ext = createExtension({ name: "hello-${runtime.name.toLowerCase()}", version: "1.0.0" });`,
        `ext.command("hello", "says hello", () => display("hello from " + (globalThis.Deno ? "Deno" : globalThis.Bun ? "Bun" : "Node")));`,
        "await ext.run();",
        "",
      ].join("\n"));
      // A command-only prompt never reaches the model: the key is a placeholder and the endpoint a closed port.
      const result = await runClosed(join(consumer, "node_modules", ".bin", "zot"), ["-p", "/hello", "-e", dir, "--no-session"],
        { cwd: consumer, env: { ...env, ANTHROPIC_API_KEY: "unused", ZOT_PROVIDER: "anthropic", ZOT_BASE_URL: "http://127.0.0.1:9" } });
      expect(result).toEqual({ code: 0, stdout: `hello from ${runtime.name}\n`, stderr: "" });
    });
  }

  it("the declarations name no package but node: built-ins (valibot's are vendored)", () => {
    const outside: string[] = [];
    for (const file of pack.files.map((f) => f.path).filter((p) => p.endsWith(".d.ts"))) {
      for (const m of readFileSync(join(installed, file), "utf8").matchAll(/(?:from\s+|import\(\s*)["']([^"']+)["']/g)) {
        if (!m[1]!.startsWith(".") && !m[1]!.startsWith("node:")) outside.push(`${file}: ${m[1]}`);
      }
    }
    expect(outside).toEqual([]);
  });

  // skipLibCheck on keeps this to a few seconds; release:check (npm-package.check.ts) type-checks with it off.
  it("TypeScript type-checks a consumer against the package's declarations, and they are not `any`", async () => {
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true,
        skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")],
      },
      files: ["check.ts"],
    }));
    writeFileSync(join(consumer, "check.ts"), [
      `import { createExtension, streamSchema, textResult, type ToolResult, type Zot } from ${JSON.stringify(NPM_PACKAGE)};`,
      'const ext = createExtension({ name: "typed", version: "1.0.0" });',
      'const result: ToolResult = textResult("ok");',
      "const problem: string | undefined = streamSchema.validateStreamLine({});",
      "// @ts-expect-error: not a number (were the types `any`, this would pass)",
      "const wrong: number = streamSchema.validateStreamLine({});",
      "// @ts-expect-error: an extension needs a name",
      'createExtension({ version: "1.0.0" });',
      "export type Embedded = Zot;",
      "export { ext, result, problem, wrong };",
      "",
    ].join("\n"));
    const tsc = await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", consumer], { cwd: consumer, env })
      .catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    expect(tsc.stdout).toBe("");
  });
});
