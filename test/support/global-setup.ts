// Builds the Node bundle so end-to-end tests run the same dist/zot.mjs a user would, and the npm
// package's library entry and types (--package) that test/package packs, only when the sources
// changed since the last build: a test run does not replace the bundle a `zot` from this checkout
// is running, and a small test file does not wait for a build. Also puts the interpreter that
// python3 stands for first on the PATH the test workers inherit.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

/** What the bundle is built from. */
const INPUTS = ["bin", "lib", "sdk", "release", "mod.ts", "build.ts", "package.json", "package-lock.json", "tsconfig.json"];

/** Every input file's path, size and modification time, hashed. */
function fingerprint(root: string): string {
  const hash = createHash("sha256");
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== "__pycache__") visit(join(path, name));
    } else hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const input of INPUTS) visit(join(root, input));
  return hash.digest("hex");
}

/**
 * A version manager's python3 (pyenv's shim) takes 0.4 s to start the interpreter it stands for,
 * which starts in 0.1 s, and its shims answer every versioned name, 0.8 s even to refuse one (a
 * Claude Code plugin's hook probes python3.13 and python3.12 before python3.11, on every call).
 * The test workers get PATH with that interpreter's folder in place of the shims: the same
 * interpreter, the same results. A python3 that is no shim leaves PATH as it is.
 */
function realPythonFirst(): void {
  let python: string;
  try {
    python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  } catch {
    return; // no python3: the tests that need one fail and say so
  }
  const dirs = (process.env.PATH ?? "").split(delimiter);
  const shims = dirs.find((dir) => existsSync(join(dir, "python3")));
  if (!python || shims === undefined || shims === dirname(python)) return;
  process.env.PATH = [dirname(python), ...dirs.filter((dir) => dir !== shims)].join(delimiter);
}

export default function setup(): void {
  realPythonFirst();
  const root = join(import.meta.dirname, "..", "..");
  if (!existsSync(join(root, "build.ts"))) return;
  const stamp = join(root, "dist", ".built-from");
  const now = fingerprint(root);
  const built = existsSync(join(root, "dist", "zot.mjs")) && existsSync(join(root, "dist", "mod.js")) && existsSync(stamp)
    && readFileSync(stamp, "utf8") === now;
  if (built) return;
  execFileSync(join(root, "node_modules", ".bin", "bun"), ["build.ts", "--node-only", "--package"], { cwd: root, stdio: "inherit" });
  // Taken again after the build, which generates some of its inputs (the SDK module templates vendor).
  writeFileSync(stamp, fingerprint(root));
}
