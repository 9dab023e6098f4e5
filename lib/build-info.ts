// What `zot --version --verbose` reports. A build (build.ts) defines the __ZOT_BUILD_*__
// constants; run from source they are absent and the build facts say so.
declare const __ZOT_BUILD_COMMIT__: string;
declare const __ZOT_BUILD_DATE__: string;
declare const __ZOT_BUILD_TARGET__: string;

export interface BuildInfo {
  version: string;
  commit: string;
  date: string;
  target: string;
  runtime: string;
}

/** The runtime zot is running on right now, e.g. "bun 1.4.5" or "node v20.20.2". */
export function currentRuntime(versions: { node?: string; bun?: string; deno?: string } = process.versions): string {
  if (versions.bun) return `bun ${versions.bun}`;
  if (versions.deno) return `deno ${versions.deno}`;
  return `node v${versions.node}`;
}

export function buildInfo(version: string): BuildInfo {
  const built = typeof __ZOT_BUILD_TARGET__ !== "undefined";
  return {
    version,
    commit: built ? __ZOT_BUILD_COMMIT__ : "unknown (run from source)",
    date: built ? __ZOT_BUILD_DATE__ : "unknown (run from source)",
    target: built ? __ZOT_BUILD_TARGET__ : "source",
    runtime: currentRuntime(),
  };
}

/** The verbose version text: the bare version first, then one `key: value` line per fact. */
export function renderBuildInfo(info: BuildInfo): string {
  return `${info.version}\ncommit: ${info.commit}\nbuilt: ${info.date}\ntarget: ${info.target}\nruntime: ${info.runtime}\n`;
}
