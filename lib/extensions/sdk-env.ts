// The environment extensions are spawned with: the user's, plus the folder of zot's own Python
// SDK on PYTHONPATH, so an installed Python extension can `import zot_ext` without vendoring it.
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | null | undefined;

/** `sdk/python` of this zot installation, found upwards from this module (source or bundle). */
export function pythonSdkDir(): string | undefined {
  if (cached !== undefined) return cached ?? undefined;
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
  return cached ?? undefined;
}

export function extensionEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const sdk = pythonSdkDir();
  if (!sdk) return base;
  return { ...base, PYTHONPATH: base.PYTHONPATH ? `${base.PYTHONPATH}${delimiter}${sdk}` : sdk };
}
