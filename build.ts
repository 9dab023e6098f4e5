// Builds zot: a Node bundle (dist/zot.mjs with dist/chunks/) and, unless --node-only, single binaries with
// `bun build --compile`. Run with bun: `bun build.ts [--node-only] [--targets=a,b]`.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const bun = process.execPath;
const args = process.argv.slice(2);
const nodeOnly = args.includes("--node-only");
const targetsArg = args.find((a) => a.startsWith("--targets="))?.slice("--targets=".length);

function run(argv: string[]): void {
  const r = spawnSync(bun, argv, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`bun ${argv.join(" ")} failed with ${r.status ?? r.signal}`);
}

// The TypeScript SDK, bundled into one module that `zot ext new --lang ts` writes beside a new
// extension; generated here (not committed) so it always matches lib/sdk.
const { bundleSdk, renderModule, GENERATED_FILE } = await import("./lib/extensions/authoring/templates/generate-ts-sdk.ts");
writeFileSync(GENERATED_FILE, renderModule(bundleSdk(bun)));

mkdirSync(join(root, "dist"), { recursive: true });
// Code splitting keeps what a command does not use (provider SDKs for `--version` or `zot ext`)
// out of its start-up: each mode and subcommand is a chunk loaded on demand.
rmSync(join(root, "dist", "chunks"), { recursive: true, force: true });
run(["build", "bin/zot.ts", "--target=node", "--format=esm", "--splitting", "--outdir=dist",
  "--entry-naming=[name].mjs", "--chunk-naming=chunks/[name]-[hash].mjs"]);
chmodSync(join(root, "dist", "zot.mjs"), 0o755);

if (!nodeOnly) {
  const targets = targetsArg ? targetsArg.split(",") : ["bun"];
  for (const target of targets) {
    const suffix = target === "bun" ? "" : `-${target.replace(/^bun-/, "")}`;
    run(["build", "bin/zot.ts", "--compile", "--minify", "--bytecode", "--format=esm",
      `--target=${target}`, `--outfile=dist/zot${suffix}`]);
  }
}
