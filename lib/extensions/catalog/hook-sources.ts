// Where hooks in Claude Code's shape come from, each source one discovery candidate of kind
// "hooks" (so doctor, enable/disable, trust and shadowing treat it as any extension):
// - the user's own: the `hooks` key of zot's config.json ("user-hooks", global);
// - a project's `.claude/settings.json` ("claude-settings") and `.claude/settings.local.json`
//   ("claude-settings-local"): project candidates, held back until the project is trusted; the
//   trust record pins the file's hooks and the content of `.claude/hooks/`, where their scripts live.
// A file that cannot be read as JSON is an error candidate naming it; no `hooks` key: no candidate;
// `"disableAllHooks": true` (Claude Code's setting) makes it a disabled one.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Candidate, DiscoveryScope } from "./candidate.ts";
import { checkManifest } from "./manifest.ts";

export const USER_HOOKS_NAME = "user-hooks";

/** A project's settings files that may hold hooks, in Claude Code's order, and the name each gets. */
export const PROJECT_HOOK_FILES = [
  { file: join(".claude", "settings.json"), name: "claude-settings" },
  { file: join(".claude", "settings.local.json"), name: "claude-settings-local" },
] as const;

/** The folder of a project's hook scripts, pinned by project trust with the settings file. */
export const PROJECT_HOOK_SCRIPTS = join(".claude", "hooks");

async function hooksCandidate(file: string, name: string, scope: DiscoveryScope, dir: string, pinnedDir?: string): Promise<Candidate | undefined> {
  let text: string;
  try {
    text = readFileSync(file, "utf8"); // small: see config.ts
  } catch {
    return undefined;
  }
  const base = { dir, scope, name, warnings: [], source: file, ...(pinnedDir ? { pinnedDir } : {}) };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ...base, decision: "error", error: `${file}: invalid JSON: ${(err as Error).message}` };
  }
  const settings = typeof data === "object" && data !== null ? data as Record<string, unknown> : {};
  if (settings.hooks === undefined) return undefined;
  try {
    // Claude Code's own switch: `"disableAllHooks": true` keeps the file's hooks from running.
    const loaded = checkManifest(dir, { name, hooks: settings.hooks, ...(settings.disableAllHooks === true ? { enabled: false } : {}) }, false);
    return { ...base, loaded, decision: "spawn" };
  } catch (err) {
    return { ...base, decision: "error", error: `${file}: ${(err as Error).message.replace(/^.*?extension\.json: /, "")}` };
  }
}

/** The hooks of the user's config.json, as a global candidate. */
export function userHooksCandidate(configPath: string): Promise<Candidate | undefined> {
  return hooksCandidate(configPath, USER_HOOKS_NAME, "global", dirname(configPath));
}

/** The hooks of a project's Claude Code settings files, as project candidates. */
export async function projectHookCandidates(project: string): Promise<Candidate[]> {
  const scripts = join(project, PROJECT_HOOK_SCRIPTS);
  const pinned = existsSync(scripts) ? scripts : undefined;
  const found = await Promise.all(PROJECT_HOOK_FILES.map(({ file, name }) =>
    hooksCandidate(join(project, file), name, "project", join(project, ".claude"), pinned)));
  return found.filter((c): c is Candidate => c !== undefined);
}
