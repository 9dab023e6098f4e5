// The environment extensions are spawned with: the user's, plus the folder of zot's own Python
// SDK on PYTHONPATH, so an installed Python extension can `import zot_ext` without vendoring it.
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../fs/atomic-write.ts";

let cached: string | null | undefined;
/** The copy ensurePythonSdk wrote, for a build that has no sdk folder beside it. */
let written: string | undefined;

/** `sdk/python` of this zot installation, found upwards from this module (source or bundle). */
export function pythonSdkDir(): string | undefined {
  if (cached !== undefined) return cached ?? written;
  cached = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "sdk", "python");
    if (existsSync(join(candidate, "zot_ext.py"))) {
      cached = candidate;
      break;
    }
    dir = dirname(dir);
  }
  return cached ?? written;
}

/**
 * Makes sure zot_ext.py is on disk before extensions start. A checkout or the npm package has it
 * beside zot's code; the `bun build --compile` binary has no files beside it but carries the SDK
 * inside, and writes it to `<home>/sdk/python` (rewritten only when it differs, so an upgraded
 * binary replaces an old copy). Never throws: without the SDK, Python extensions fail to import
 * it and say so in their log.
 */
export async function ensurePythonSdk(home: string): Promise<void> {
  if (pythonSdkDir()) return;
  try {
    // Loaded only here: vitest cannot parse a .py module, and no other build needs the text.
    const { default: text } = await import("../../sdk/python/zot_ext.py", { with: { type: "text" } });
    const dir = join(home, "sdk", "python");
    const file = join(dir, "zot_ext.py");
    let current: string | undefined;
    try {
      current = readFileSync(file, "utf8");
    } catch {
      // not written yet
    }
    if (current !== text) await writeFileAtomic(file, text);
    written = dir;
  } catch {
    // best effort, as documented above
  }
}

export function extensionEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const sdk = pythonSdkDir();
  if (!sdk) return base;
  return { ...base, PYTHONPATH: base.PYTHONPATH ? `${base.PYTHONPATH}${delimiter}${sdk}` : sdk };
}
