// $ZOT_HOME/config.json: the last provider/model and settings. A missing or broken file is
// an empty config (a warning, never a crash); writes are atomic.
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "./fs/atomic-write.ts";

/** The file's own keys (snake_case, as users write them), read and written as they are. */
export interface ZotConfig {
  provider?: string;
  model?: string;
  base_url?: string;
  [key: string]: unknown;
}

export async function readConfig(path: string, warn: (message: string) => void = () => {}): Promise<ZotConfig> {
  let text: string;
  try {
    // Read synchronously, as the other small files of a run's start are: a trip through the
    // runtime's thread pool (and starting it, 2 ms) costs more than reading them.
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") warn(`cannot read ${path}: ${(err as Error).message}`);
    return {};
  }
  try {
    const data: unknown = JSON.parse(text);
    if (data && typeof data === "object" && !Array.isArray(data)) return data as ZotConfig;
    warn(`${path} must hold a JSON object; ignoring it`);
  } catch (err) {
    warn(`${path} is not valid JSON (${(err as Error).message}); ignoring it`);
  }
  return {};
}

/** Merges `changes` into the stored config, keeping every other setting. */
export async function updateConfig(path: string, changes: Partial<ZotConfig>): Promise<void> {
  const current = await readConfig(path);
  await writeFileAtomic(path, `${JSON.stringify({ ...current, ...changes }, null, 2)}\n`);
}
