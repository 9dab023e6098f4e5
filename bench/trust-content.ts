// What pinning a project's trust to its extensions' folder content costs a start: a project
// extension with a node_modules of 5,000 files (250 packages of 20 files of 2 KB), trusted, then
// checked the way every start checks it. Rows, interleaved round by round, as medians:
// - floor: the walk alone (readdir and one lstat per entry, what any check of every file needs);
// - warm: the check of a start, cache loaded from $ZOT_HOME (one lstat per entry, nothing re-read);
// - one file edited: the same after one file changed (its bytes are hashed again);
// - cold: no cache at all (every file read and hashed, as the first trust does).
//   node_modules/.bin/bun bench/trust-content.ts [rounds=15]
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverExtensions } from "../lib/extensions/catalog/discovery.ts";
import { ContentCache, folderContent } from "../lib/extensions/catalog/trust/content.ts";
import { trustGate } from "../lib/extensions/catalog/trust/gate.ts";
import { trustProject } from "../lib/extensions/catalog/trust/records.ts";
import { contentCachePath, readTrust } from "../lib/extensions/catalog/trust/store.ts";
import { loadManifest } from "../lib/extensions/catalog/manifest.ts";
import { pathsUnder } from "../lib/paths.ts";

const text = process.argv[2];
const ROUNDS = Number(text ?? 15);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`rounds must be a positive integer, got ${JSON.stringify(text)}`);

const root = mkdtempSync(join(tmpdir(), "zot-bench-content-"));
const cwd = join(root, "project");
const paths = pathsUnder(join(root, "home"));
const dir = join(cwd, ".zot", "extensions", "big");
for (let p = 0; p < 250; p++) {
  const lib = join(dir, "node_modules", `pkg-${p}`, "lib");
  mkdirSync(lib, { recursive: true });
  for (let f = 0; f < 20; f++) writeFileSync(join(lib, `file-${f}.js`), `// ${p}/${f}\n${"x".repeat(2000)}\n`);
}
writeFileSync(join(dir, "main.mjs"), "// the extension\n");
writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "big", exec: "node", args: ["main.mjs"] }));
await trustProject(paths, cwd, [{ manifest: (await loadManifest(dir)).manifest, dir }]);

function walk(folder: string): number {
  let n = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    n++;
    if (lstatSync(path).isDirectory()) n += walk(path);
  }
  return n;
}

/** The check of one start, through discovery and the trust gate with the cache in $ZOT_HOME. */
async function startCheck(): Promise<void> {
  const candidates = await discoverExtensions({ cwd, paths, trust: trustGate(await readTrust(paths), { cwd, paths }) });
  if (candidates[0]?.decision !== "spawn") throw new Error(`the trusted extension was held back: ${candidates[0]?.trust?.message}`);
}

const rows: Record<string, number[]> = { floor: [], warm: [], "one file edited": [], cold: [] };
const time = async (row: string, fn: () => unknown) => {
  const begin = performance.now();
  await fn();
  rows[row]!.push(performance.now() - begin);
};
let edits = 0;
for (let round = 0; round < ROUNDS + 2; round++) {
  const keep = round >= 2; // two warm-up rounds
  const measure = async (row: string, fn: () => unknown) => (keep ? time(row, fn) : fn());
  await measure("floor", () => walk(dir));
  await measure("warm", startCheck);
  writeFileSync(join(dir, "node_modules", "pkg-7", "lib", "file-3.js"), `// edited ${++edits}\n`);
  await trustProject(paths, cwd, [{ manifest: (await loadManifest(dir)).manifest, dir }]);
  writeFileSync(join(dir, "node_modules", "pkg-7", "lib", "file-3.js"), `// edited ${++edits}\n`);
  const cache = await ContentCache.load(contentCachePath(paths));
  await measure("one file edited", () => folderContent(dir, cache));
  await trustProject(paths, cwd, [{ manifest: (await loadManifest(dir)).manifest, dir }]);
  await measure("cold", () => folderContent(dir, new ContentCache()));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = median(rows.floor!);
console.log(`${walk(dir)} entries, ${ROUNDS} rounds, ${process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`}`);
console.log("| case | median ms | ÷ floor |\n|---|---:|---:|");
for (const [row, times] of Object.entries(rows)) console.log(`| ${row} | ${median(times).toFixed(1)} | ${(median(times) / floor).toFixed(2)}× |`);
rmSync(root, { recursive: true, force: true });
