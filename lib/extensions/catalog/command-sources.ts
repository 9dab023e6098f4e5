// Markdown slash commands outside plugins, in Claude Code's format (the same as a plugin's
// `commands/*.md`), each folder one discovery candidate of kind "commands", run by the hook runner:
// - the user's: `$ZOT_HOME/commands` ("user-commands") and Claude Code's `~/.claude/commands`
//   ("claude-user-commands"), global;
// - a project's: `.zot/commands` ("project-commands") and `.claude/commands`
//   ("claude-project-commands"), held back until the project is trusted, pinned by content.
// A command is `/name` (a subfolder adds `folder:`).
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Candidate, DiscoveryScope } from "./candidate.ts";
import type { LoadedManifest } from "./manifest.ts";

function commandsCandidate(dir: string, name: string, scope: DiscoveryScope): Candidate | undefined {
  try {
    if (!statSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const loaded: LoadedManifest = { dir, manifest: { name, commands: [dir] }, kind: "commands", enabled: true };
  return { dir, scope, name, loaded, decision: "spawn", warnings: [], source: dir, pinnedDir: dir };
}

export function userCommandCandidates(zotHome: string, home = homedir()): Candidate[] {
  return [commandsCandidate(join(zotHome, "commands"), "user-commands", "global"),
    commandsCandidate(join(home, ".claude", "commands"), "claude-user-commands", "global")].filter((c): c is Candidate => c !== undefined);
}

export function projectCommandCandidates(project: string): Candidate[] {
  return [commandsCandidate(join(project, ".zot", "commands"), "project-commands", "project"),
    commandsCandidate(join(project, ".claude", "commands"), "claude-project-commands", "project")]
    .filter((c): c is Candidate => c !== undefined && existsSync(c.dir));
}
