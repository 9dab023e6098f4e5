// What changed in a plugin between the approved copy and the one an update fetched: files
// added, removed and changed, and hook commands new or gone. Shown before the question, so
// nothing of the new version runs unseen.
import { readFileSync } from "node:fs";
import { parseHooks } from "../../extensions/catalog/hook-settings.ts";
import type { Manifest } from "../../extensions/catalog/manifest.ts";
import { PLUGIN_STATE } from "../../extensions/catalog/plugin-manifest.ts";
import { filesUnder, ORIGIN_FILE } from "../../extensions/install/origin.ts";

const read = (path: string): Buffer | undefined => {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
};

const hookLines = (manifest: Manifest | undefined, dir: string) =>
  new Set(parseHooks(manifest?.hooks ?? {}, dir).hooks.map((h) => `${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command}`));

export async function pluginChanges(oldDir: string, oldManifest: Manifest | undefined, newDir: string, newManifest: Manifest): Promise<string[]> {
  const ours = (f: string) => f !== ORIGIN_FILE && f !== PLUGIN_STATE;
  const before = new Set((await filesUnder(oldDir)).filter(ours));
  const after = new Set((await filesUnder(newDir)).filter(ours));
  const lines: string[] = [];
  for (const file of [...after].sort()) {
    if (!before.has(file)) lines.push(`added ${file}`);
    else if (!read(`${oldDir}/${file}`)!.equals(read(`${newDir}/${file}`) ?? Buffer.alloc(0))) lines.push(`changed ${file}`);
  }
  for (const file of [...before].sort()) if (!after.has(file)) lines.push(`removed ${file}`);
  const oldHooks = hookLines(oldManifest, oldDir);
  const newHooks = hookLines(newManifest, newDir);
  for (const hook of newHooks) if (!oldHooks.has(hook)) lines.push(`new hook ${hook}`);
  for (const hook of oldHooks) if (!newHooks.has(hook)) lines.push(`hook gone ${hook}`);
  return lines;
}
