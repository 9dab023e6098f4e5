// `zot ext install <source> [--project] [--force] [--yes] [--timeout-ms N]`. Before an extension
// that runs code lands, zot shows what it requests and asks; the approval is recorded in trust.json.
import { defineCommand } from "citty";
import { printable } from "../../terminal-text.ts";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../../extensions/install/download.ts";
import { InstallCancelledError, installExtension } from "../../extensions/install/install.ts";
import { asksBeforeInstall, type BundleKind, type Manifest } from "../../extensions/catalog/manifest.ts";
import { variableLines } from "../../extensions/catalog/permissions/passed-variables.ts";
import { describeGrant, grantFromManifest } from "../../extensions/catalog/permissions/manifest-permissions.ts";
import { approveExtension, trustProject } from "../../extensions/catalog/trust/records.ts";
import { cwdArg, fetchTimeoutArg, parseTimeoutMs, projectDir, rootsFor } from "./args.ts";
import { confirm } from "./ask.ts";
import { pluginRunLines } from "./plugin-request.ts";

/** "notes 1.2.0 requests:" and one indented line per scope (or "full access"). */
export function describeRequest(manifest: Manifest, passed: readonly string[] = [], dir?: string): string {
  const runs = manifest.plugin && dir ? pluginRunLines(manifest, dir) : [];
  const lines = [...describeGrant(grantFromManifest(manifest.permissions)), ...variableLines(manifest, passed), ...runs];
  const remote = manifest.url ? [`connects to ${manifest.url}, which gets the session's events and tool calls it asks for`] : [];
  return printable(`${manifest.name}${manifest.version ? ` ${manifest.version}` : ""} requests:\n${[...remote, ...lines].map((l) => `  ${l}`).join("\n")}\n`);
}

/** The trust question: shown on stderr; --yes answers it; without a terminal and --yes, no. */
export async function approveInstall(manifest: Manifest, kind: BundleKind, yes: boolean, action: "install" | "update" = "install",
  dir?: string): Promise<boolean> {
  if (!asksBeforeInstall(kind)) return true; // theme and skill bundles run no code
  process.stderr.write(describeRequest(manifest, [], dir));
  if (yes) return true;
  const [done, doing] = action === "install" ? ["installed", "installing"] : ["updated", "updating"];
  if (!process.stdin.isTTY) {
    throw new InstallCancelledError(manifest.name, `${manifest.name} was not ${done}: zot asks before ${doing} an extension, `
      + "and there is no terminal to ask on; pass --yes to accept what it requests");
  }
  if (await confirm(`${action === "install" ? "Install" : "Update"} ${manifest.name} with these permissions? [y/N] `)) return true;
  throw new InstallCancelledError(manifest.name, `${manifest.name} was not ${done}`);
}

export const installCommand = defineCommand({
  meta: {
    name: "install",
    description: "Install an extension or a Claude Code plugin from a marketplace, a folder, a git URL or a giget source",
  },
  args: {
    source: {
      type: "positional",
      required: true,
      description: "NAME@MARKETPLACE (a plugin of a marketplace you added), a folder (copied; .git is skipped), a git URL (https://…, git@…, ssh://…, file://…, "
        + "*.git; shallow clone, #branch or #tag) or a giget source (gh:owner/repo/dir#ref, github:, "
        + "gitlab:, bitbucket:, sourcehut:, or an https://….tar.gz URL)",
    },
    project: { type: "boolean", description: "Install into ./.zot/extensions instead of $ZOT_HOME/extensions" },
    force: { type: "boolean", description: "Replace an existing install of the same name" },
    yes: { type: "boolean", alias: "y", description: "Accept what the extension requests without asking" },
    ...fetchTimeoutArg,
    ...cwdArg,
  },
  async run({ args }) {
    const roots = rootsFor(args.cwd);
    const scope = args.project ? "project" : "global";
    const idleTimeoutMs = parseTimeoutMs(args["timeout-ms"], DEFAULT_IDLE_TIMEOUT_MS);
    const paths = roots.paths;
    let result;
    try {
      result = await installExtension({
        source: args.source,
        root: args.project ? roots.project : roots.global,
        paths: roots.paths,
        // Sources are what the user typed in their shell, so they resolve against it, not --cwd.
        cwd: process.cwd(),
        force: Boolean(args.force),
        idleTimeoutMs,
        exitOnSignal: true,
        progress: (line) => process.stderr.write(`${line}\n`),
        warn: (line) => process.stderr.write(`zot: warning: ${printable(line)}\n`),
        confirm: (manifest, kind, staging) => approveInstall(manifest, kind, Boolean(args.yes), "install", staging),
      });
    } catch (err) {
      if (!(err instanceof InstallCancelledError)) throw err;
      process.stderr.write(`zot: ${printable(err.message)}\n`);
      return 1;
    }
    // The approval is pinned to this manifest: a later version asking for more waits for `zot ext trust`.
    if (asksBeforeInstall(result.kind)) {
      if (scope === "project") await trustProject(paths, projectDir(args.cwd), [{ manifest: result.manifest, dir: result.path }], true);
      else await approveExtension(paths, result.manifest);
    }
    const version = result.manifest.version ? ` ${result.manifest.version}` : "";
    const lines = [
      `${result.replaced ? "Replaced" : "Installed"} ${result.name}${version} (${scope}) in ${result.path}`,
    ];
    if (result.manifest.enabled === false) lines.push(`It is disabled in its manifest; enable it with \`zot ext enable ${result.name}\`.`);
    const where = scope === "project" ? ` from ${projectDir(args.cwd)}` : "";
    lines.push(`Try it: start zot${where} (extensions load at startup); \`zot ext doctor\` shows whether it loads.`);
    process.stdout.write(printable(`${lines.join("\n")}\n`));
    return 0;
  },
});
