// The ACP registry's entry for zot (`agent.json`, the registry's format): how an editor that reads
// the registry installs zot and starts it as an ACP agent, from the release archives or from npm.
import { NPM_PACKAGE } from "../lib/package-name.ts";
import { archiveName, archiveStem, RELEASE_TARGETS, type ReleaseTarget } from "./targets.ts";

export const RELEASES_URL = "https://github.com/zot-cli/zot/releases";

/** The registry's platform names for the release targets. */
const PLATFORM: Record<string, string> = {
  "linux-x64": "linux-x86_64", "linux-arm64": "linux-aarch64", "darwin-x64": "darwin-x86_64", "darwin-arm64": "darwin-aarch64",
  "windows-x64": "windows-x86_64",
};

export function acpRegistryEntry(version: string): Record<string, unknown> {
  const binary = Object.fromEntries(RELEASE_TARGETS.map((t: ReleaseTarget) => [PLATFORM[`${t.os}-${t.arch}`], {
    archive: `${RELEASES_URL}/download/v${version}/${archiveName(version, t)}`,
    cmd: `./${archiveStem(version, t)}/${t.executable}`,
    args: ["acp"],
  }]));
  return {
    id: "zot", name: "zot", version, license: "MIT", repository: "https://github.com/zot-cli/zot", authors: ["zot contributors"],
    description: "A coding agent whose extensions run in any language, with MCP servers and Claude Code plugins, under least privilege",
    distribution: { binary, npx: { package: `${NPM_PACKAGE}@${version}`, args: ["acp"] } },
  };
}
