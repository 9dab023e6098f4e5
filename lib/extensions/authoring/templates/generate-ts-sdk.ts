// Generates ts-sdk.generated.ts (not committed): zot's TypeScript SDK (lib/sdk, with lib/protocol
// and valibot) bundled by bun into one ES module, embedded as a string so `zot ext new --lang ts`
// can write it beside a new extension's main.ts from any zot build (source, dist/zot.mjs,
// compiled binary). build.ts runs it before every bundle, and so does `npm run typecheck`.
//
//   node_modules/.bin/bun lib/extensions/authoring/templates/generate-ts-sdk.ts          # write it
//   node_modules/.bin/bun lib/extensions/authoring/templates/generate-ts-sdk.ts --check  # exit 1 if stale
//
// It is a build script (run by bun, the bundler): zot itself never imports it.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..", "..");
export const GENERATED_FILE = join(here, "ts-sdk.generated.ts");
const SDK_ENTRY = "lib/sdk/index.ts";

/** The SDK as one ES module for Node/Bun/Deno, via `bun build` (deterministic for one bun). */
export function bundleSdk(bun: string): string {
  // Relative entry and cwd at the repo root: bun's "// lib/sdk/…" section comments stay stable.
  // ws stays an import: only ext.serve loads it (Bun has it built in), stdio extensions never do.
  const r = spawnSync(bun, ["build", SDK_ENTRY, "--target=node", "--format=esm", "--external=ws"], { cwd: repo, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bun build ${SDK_ENTRY} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout;
}

/** Escapes text for a template literal: backslash, backtick and `${` are the only specials. */
export function templateLiteral(text: string): string {
  return `\`${text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\``;
}

export function renderModule(bundle: string): string {
  const script = relative(repo, fileURLToPath(import.meta.url));
  return `// GENERATED from ${SDK_ENTRY} by ${script} (run by build.ts): do not edit or commit.

/** zot's TypeScript SDK bundled into one ES module (node: built-ins only, but for the ws that ext.serve loads). */
export const TS_SDK_BUNDLE = ${templateLiteral(bundle)};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = renderModule(bundleSdk(process.execPath));
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(GENERATED_FILE, "utf8");
    } catch {
      // missing counts as stale
    }
    if (current !== wanted) {
      process.stderr.write(`${relative(repo, GENERATED_FILE)} is stale: run ${relative(repo, fileURLToPath(import.meta.url))} with bun\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(GENERATED_FILE, wanted);
  }
}
