// What the bundles a run uses add to the session besides their running parts: skill folders,
// plugins' bin/ folders for the bash tool's PATH, and plugins' agent types and output styles.
// Read from the candidates in load order; only those that are used (not disabled, shadowed or
// broken) count.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Candidate } from "./candidate.ts";
import { pluginParts } from "./plugin-manifest.ts";

/** Manifest `skills` entries of the extensions and bundles in use. */
export function skillInputs(candidates: readonly Candidate[]): Array<{ dir: string; skills: string[] }> {
  return candidates
    .filter((c) => (c.decision === "spawn" || c.decision === "bundle") && c.loaded?.manifest.skills?.length)
    .map((c) => ({ dir: c.dir, skills: [...c.loaded!.manifest.skills!] }));
}

const pluginsInUse = (candidates: readonly Candidate[]) => candidates.filter((c) => c.decision === "spawn" && c.loaded?.kind === "plugin");

/** The bin/ folders of the plugins in use. */
export function pluginBins(candidates: readonly Candidate[]): string[] {
  return pluginsInUse(candidates).map((c) => join(c.dir, "bin")).filter((dir) => existsSync(dir));
}

/** The plugins' agent type folders (Claude Code's `agents/*.md`) or output style folders (`output-styles/*.md`). */
export function pluginFolders(candidates: readonly Candidate[], part: "agents" | "outputStyles"): Array<{ dir: string; plugin: string }> {
  return pluginsInUse(candidates).flatMap((c) => (pluginParts(c.dir)?.[part] ?? []).map((dir) => ({ dir, plugin: c.name })));
}
