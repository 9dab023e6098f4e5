// `npm run release:check`: runs what `npm run release` wrote to dist/release/ before it ships.
// Kept out of `npm test`: it needs the full release build, qemu and the arm64 C libraries.
import { join } from "node:path";
import { defineConfig } from "vitest/config";

const releaseDir = join(import.meta.dirname, "dist", "release");
process.env.ZOT_RELEASE_DIR = releaseDir;

export default defineConfig({
  test: {
    include: ["test/release/**/*.check.ts", "test/release/install.test.ts", "test/e2e/runtimes.test.ts"],
    globalSetup: ["test/release/release-setup.ts"],
    env: { ZOT_RELEASE_DIR: releaseDir },
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
  },
});
