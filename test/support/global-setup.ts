// Builds the Node bundle once so end-to-end tests run the same dist/zot.mjs a user would, and the
// npm package's library entry and types (--package) that test/package packs.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export default function setup(): void {
  const root = join(import.meta.dirname, "..", "..");
  if (!existsSync(join(root, "build.ts"))) return;
  execFileSync(join(root, "node_modules", ".bin", "bun"), ["build.ts", "--node-only", "--package"], { cwd: root, stdio: "inherit" });
}
