// The environment extensions are spawned with: the user's, plus the folder of zot's own Python
// SDK on PYTHONPATH, so an installed Python extension can `import zot_ext` without vendoring it,
// plus ZOT_BUN when zot is a `bun build --compile` binary, which can run TypeScript itself.
import { existsSync, readFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "../../lazy-node.ts";
import { writeFileAtomic } from "../../fs/atomic-write.ts";

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
    const { default: text } = await import("../../../sdk/python/zot_ext.py", { with: { type: "text" } });
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

/** What bundledBun looks at; the current process by default. */
export interface RuntimeFacts {
  versions: NodeJS.ProcessVersions;
  execPath: string;
}

/** bun's own executable names: `bun`, npm's `bun.exe` (on every platform), `bun-debug`, `bun-profile`. */
const BUN_EXECUTABLE = /^bun(-debug|-profile)?(\.exe)?$/i;

/**
 * The path of the `bun build --compile` binary zot is running as, or undefined when zot runs on
 * Node, Deno or a bun installation (`bun bin/zot.ts`). Such a binary carries the whole bun
 * runtime: started with `BUN_BE_BUN=1` it behaves as the bun CLI, so `BUN_BE_BUN=1 <path> main.ts`
 * runs a TypeScript extension on a machine with no runtime installed. Under bun,
 * `process.execPath` is the binary that was started: bun itself, or the compiled zot.
 */
export function bundledBun(runtime: RuntimeFacts = process): string | undefined {
  if (!runtime.versions.bun) return undefined;
  if (BUN_EXECUTABLE.test(basename(runtime.execPath))) return undefined;
  return runtime.execPath;
}

/**
 * `base` (the user's environment) for a spawned extension, plus zot's Python SDK folder appended
 * to PYTHONPATH when found, plus `ZOT_BUN=<binary>` when zot is a compiled binary (bundledBun),
 * replacing any ZOT_BUN the user had set, so it always names a binary that can act as bun.
 * `base` is never modified.
 */
export function extensionEnv(base: NodeJS.ProcessEnv = process.env, runtime: RuntimeFacts = process): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const sdk = pythonSdkDir();
  if (sdk) env.PYTHONPATH = base.PYTHONPATH ? `${base.PYTHONPATH}${delimiter}${sdk}` : sdk;
  const bun = bundledBun(runtime);
  if (bun) env.ZOT_BUN = bun;
  return env;
}
