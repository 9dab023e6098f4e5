// `npm run release`: builds the Node bundle, the npm package and the five single binaries, then
// writes dist/release/: one archive per target (binary, README.md, LICENSE), the npm tarball,
// install.sh, the ACP registry's agent.json and SHA256SUMS over all of them. Run with bun (like build.ts).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ZOT_VERSION } from "../lib/version.ts";
import { writeTarGz, writeZip, type ArchiveEntry } from "./archive.ts";
import { renderSums } from "./checksums.ts";
import { acpRegistryEntry } from "./acp-registry.ts";
import { archiveName, archiveStem, RELEASE_TARGETS } from "./targets.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, "dist", "release");
const started = performance.now();

function run(exe: string, argv: string[]): void {
  const r = spawnSync(exe, argv, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${exe} ${argv.join(" ")} failed with ${r.status ?? r.signal}`);
}

const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version as string;
if (version !== ZOT_VERSION) throw new Error(`package.json says ${version} but lib/version.ts says ${ZOT_VERSION}: make them agree`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run(process.execPath, ["build.ts", "--package", `--targets=${RELEASE_TARGETS.map((t) => t.bun).join(",")}`]);

// One timestamp for every entry (SOURCE_DATE_EPOCH when set) keeps archives reproducible.
const epoch = Number(process.env.SOURCE_DATE_EPOCH);
const mtime = Number.isFinite(epoch) && epoch > 0 ? epoch : Math.floor(Date.now() / 1000);
const docs: ArchiveEntry[] = ["README.md", "LICENSE"].map((name) => ({ name, data: readFileSync(join(root, name)), mode: 0o644 }));
for (const t of RELEASE_TARGETS) {
  const entries = [{ name: t.executable, data: readFileSync(join(root, "dist", t.built)), mode: 0o755 }, ...docs];
  const write = t.archive === "zip" ? writeZip : writeTarGz;
  write(join(out, archiveName(version, t)), archiveStem(version, t), entries, mtime);
}
copyFileSync(join(root, "install.sh"), join(out, "install.sh"));
writeFileSync(join(out, "agent.json"), `${JSON.stringify(acpRegistryEntry(version), null, 2)}\n`);
// Scripts are off: the build above already made what the package ships.
run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", out]);

const files = readdirSync(out).sort().map((name) => ({ name, data: readFileSync(join(out, name)) }));
writeFileSync(join(out, "SHA256SUMS"), renderSums(files));
for (const f of files) process.stderr.write(`${f.name}\t${(statSync(join(out, f.name)).size / 2 ** 20).toFixed(1)} MiB\n`);
process.stderr.write(`release ${version} in dist/release (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
