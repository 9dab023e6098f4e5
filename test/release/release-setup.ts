// release:check's global setup: the checks need a finished `npm run release`.
import { existsSync } from "node:fs";
import { join } from "node:path";

export default function setup(): void {
  const dir = process.env.ZOT_RELEASE_DIR ?? "";
  if (!existsSync(join(dir, "SHA256SUMS"))) throw new Error(`no release in ${dir}: run \`npm run release\` first`);
}
