// Builds zot: a Node bundle (dist/zot.mjs with dist/chunks/) and, unless --node-only, single binaries with
// `bun build --compile`. Run with bun: `bun build.ts [--node-only] [--targets=a,b] [--package]
// [--no-bytecode-order]`.
// --package also builds the npm package's library entry: dist/mod.js (with dist/mod-chunks/) and its .d.ts under dist/types.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMPILE_FLAGS } from "./release/compile-flags.ts";

const root = dirname(fileURLToPath(import.meta.url));
const bun = process.execPath;
const args = process.argv.slice(2);
const nodeOnly = args.includes("--node-only");
const targetsArg = args.find((a) => a.startsWith("--targets="))?.slice("--targets=".length);
const packageEntry = args.includes("--package");

function run(argv: string[], exe = bun): void {
  const r = spawnSync(exe, argv, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${exe} ${argv.join(" ")} failed with ${r.status ?? r.signal}`);
}

// The build-info stamp `zot --version --verbose` shows (see lib/build-info.ts).
const commit = spawnSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, encoding: "utf8" }).stdout?.trim() || "unknown";
const epoch = Number(process.env.SOURCE_DATE_EPOCH);
const builtAt = (Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date()).toISOString().replace(/\.\d+Z$/, "Z");
function stamp(target: string): string[] {
  return [`--define=__ZOT_BUILD_COMMIT__=${JSON.stringify(commit)}`, `--define=__ZOT_BUILD_DATE__=${JSON.stringify(builtAt)}`,
    `--define=__ZOT_BUILD_TARGET__=${JSON.stringify(target)}`];
}

// The TypeScript SDK, bundled into one module that `zot ext new --lang ts` writes beside a new
// extension; generated here (not committed) so it always matches lib/sdk.
const { bundleSdk, renderModule, GENERATED_FILE } = await import("./lib/extensions/authoring/templates/generate-ts-sdk.ts");
writeFileSync(GENERATED_FILE, renderModule(bundleSdk(bun)));

mkdirSync(join(root, "dist"), { recursive: true });
// Code splitting keeps what a command does not use (provider SDKs for `--version` or `zot ext`)
// out of its start-up: each mode and subcommand is a chunk loaded on demand.
rmSync(join(root, "dist", "chunks"), { recursive: true, force: true });
// The metafile says which source modules each chunk holds: a test reads it to check what a
// one-shot run loads (test/e2e/startup-modules.test.ts).
run(["build", "bin/zot.ts", "--target=node", "--format=esm", "--splitting", "--outdir=dist",
  "--entry-naming=[name].mjs", "--chunk-naming=chunks/[name]-[hash].mjs", "--metafile=dist/zot-meta.json", ...stamp("node")]);
chmodSync(join(root, "dist", "zot.mjs"), 0o755);

if (packageEntry) {
  // The library bundles its dependencies like the CLI does, so the package has none to install;
  // split so that what createExtension does not use (providers, MCP) loads only when used.
  rmSync(join(root, "dist", "mod-chunks"), { recursive: true, force: true });
  run(["build", "mod.ts", "--target=node", "--format=esm", "--splitting", "--outdir=dist", "--entry-naming=[name].js",
    "--chunk-naming=mod-chunks/[name]-[hash].js", ...stamp("node")]);
  const { writePackageTypes } = await import("./release/package-types.ts");
  writePackageTypes(root, (argv) => run(argv, join(root, "node_modules", ".bin", "tsc")));
}

if (!nodeOnly) {
  const targets = targetsArg ? targetsArg.split(",") : ["bun"];
  const compile = ["build", "bin/zot.ts", ...COMPILE_FLAGS];
  const orderDir = mkdtempSync(join(tmpdir(), "zot-bytecode-order-"));
  try {
    const order = args.includes("--no-bytecode-order") ? [] : await bytecodeOrder(compile, orderDir);
    for (const target of targets) {
      const suffix = target === "bun" ? "" : `-${target.replace(/^bun-/, "")}`;
      run([...compile, ...order, `--target=${target}`, `--outfile=dist/zot${suffix}`, ...stamp(target)]);
    }
  } finally {
    rmSync(orderDir, { recursive: true, force: true });
  }
}

/**
 * The --bytecode-order flag from runs of a first build for this machine (release/bytecode-order.ts),
 * which every target's build can use: the order names functions, not machine code. Without it
 * (recording failed) the binaries work the same and start a little slower.
 */
async function bytecodeOrder(compile: string[], dir: string): Promise<string[]> {
  const probe = join(dir, "zot");
  run([...compile, `--outfile=${probe}`, ...stamp("bun")]);
  try {
    const { recordBytecodeOrder } = await import("./release/bytecode-order.ts");
    return [`--bytecode-order=${(await recordBytecodeOrder(probe, dir)).join(",")}`];
  } catch (err) {
    process.stderr.write(`build: binaries without a bytecode order: ${(err as Error).message}\n`);
    return [];
  }
}
