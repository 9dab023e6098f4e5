// `zot ext update [NAME…] [--project|--global] [--yes] [--timeout-ms N]`: re-install extensions
// from the sources they were installed from (all that have one when no name is given). An
// update that asks for other permissions than the user approved goes through install's question.
import { defineCommand, parseArgs } from "citty";
import { printable } from "../../terminal-text.ts";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../../extensions/install/download.ts";
import { InstallCancelledError } from "../../extensions/install/install.ts";
import { listInstalled, type ExtensionRoots, type InstalledExtension } from "../../extensions/install/installed.ts";
import { findInstalled } from "../../extensions/install/manage.ts";
import { describeOrigin, readOrigin } from "../../extensions/install/origin.ts";
import { updateExtension } from "../../extensions/install/update.ts";
import { asksBeforeInstall, type BundleKind, type Manifest } from "../../extensions/catalog/manifest.ts";
import { canonicalJson } from "../../protocol/json-object.ts";
import { projectKey } from "../../extensions/catalog/trust/gate.ts";
import { approveExtension, trustProject } from "../../extensions/catalog/trust/records.ts";
import { readTrust } from "../../extensions/catalog/trust/store.ts";
import { cwdArg, fetchTimeoutArg, parseTimeoutMs, rootsFor, scopeOf } from "./args.ts";
import { approveInstall } from "./install.ts";
import { pluginChanges } from "./plugin-changes.ts";
import { resolveExec, shebang } from "../../extensions/runtime/exec-resolve.ts";
import { isAbsolute } from "node:path";

const UPDATE_ARGS = {
  name: { type: "positional", required: false, description: "Extensions to update, by manifest or folder name (default: every one with a recorded source)" },
  project: { type: "boolean", description: "Only consider project installs (./.zot/extensions)" },
  global: { type: "boolean", description: "Only consider global installs ($ZOT_HOME/extensions)" },
  yes: { type: "boolean", alias: "y", description: "Accept changed permissions without asking (needed without a terminal)" },
  ...fetchTimeoutArg,
  ...cwdArg,
} as const;

/** What starting an extension runs: its exec, its arguments and the #! line of the program exec names. */
function launchOf(dir: string, manifest: Manifest): string {
  const command = manifest.exec ? resolveExec(dir, manifest.exec) : undefined;
  const line = command && isAbsolute(command) ? shebang(command) : undefined;
  return `${[manifest.exec ?? "", ...(manifest.args ?? [])].join(" ")}${line !== undefined ? ` (#!${line.trim()})` : ""}`;
}

/** True when the user approved exactly these permissions for this extension before (and did not revoke them). */
async function approvedBefore(roots: ExtensionRoots, ext: InstalledExtension, manifest: Manifest): Promise<boolean> {
  const trust = await readTrust(roots.paths);
  const record = ext.scope === "global" ? trust.extensions[manifest.name]
    : trust.projects[projectKey(roots.cwd)]?.extensions[manifest.name];
  if (!record || record.revoked) return false;
  return JSON.stringify(canonicalJson(record.permissions)) === JSON.stringify(canonicalJson(manifest.permissions ?? null));
}

async function updateOne(ext: InstalledExtension, roots: ExtensionRoots, yes: boolean, idleTimeoutMs: number): Promise<string> {
  /** The fetched copy adds and changes nothing of the installed one. */
  let unchanged = false;
  const result = await updateExtension(ext, roots, {
    idleTimeoutMs,
    exitOnSignal: true,
    progress: (line) => process.stderr.write(`${line}\n`),
    warn: (line) => process.stderr.write(`zot: warning: ${printable(line)}\n`),
    confirm: async (manifest: Manifest, kind: BundleKind, _previous: Manifest | undefined, staging: string) => {
      const changes = await pluginChanges(ext.path, ext.manifest, staging, manifest);
      // Files only the installed copy has are its own (data it wrote there), not news.
      unchanged = changes.every((c) => c.startsWith("removed "));
      if (!asksBeforeInstall(kind)) return true;
      if (kind === "plugin") {
        // Any change to a plugin's files may change what runs: show it, and ask again.
        if (changes.length === 0) return true;
        process.stderr.write(printable(`zot: ${manifest.name} changed since the approved version:\n${changes.map((c) => `  ${c}`).join("\n")}\n`));
        return approveInstall(manifest, kind, yes, "update", staging);
      }
      // What starts is part of what was approved: a new exec, arguments or #! line asks again.
      const before = ext.manifest ? launchOf(ext.path, ext.manifest) : undefined;
      const after = launchOf(staging, manifest);
      if (before !== after) process.stderr.write(printable(`zot: ${manifest.name}: what it starts changed (${before ?? "unknown"} → ${after})\n`));
      return (before === after && (await approvedBefore(roots, ext, manifest))) || approveInstall(manifest, kind, yes, "update");
    },
  });
  // As install does: the grant is pinned to the manifest (and a project's to its folder) as it is now.
  if (asksBeforeInstall(result.kind)) {
    if (ext.scope === "project") await trustProject(roots.paths, roots.cwd, [{ manifest: result.manifest, dir: result.path }], true);
    else await approveExtension(roots.paths, result.manifest);
  }
  const from = result.previous?.version ?? "";
  const to = result.manifest.version ?? "";
  const versions = from && to && from !== to ? ` ${from} → ${to}` : to ? ` ${to}` : "";
  const state = ext.enabled ? "" : "; it stays disabled";
  if (unchanged) return printable(`${result.name}${versions} (${ext.scope}) is up to date with ${describeOrigin(result.origin)}: nothing changed${state}\n`);
  return printable(`Updated ${result.name}${versions} (${ext.scope}) from ${describeOrigin(result.origin)}${state}\n`);
}

export const updateCommand = defineCommand({
  meta: {
    name: "update",
    description: "Re-install extensions from the source they were installed from (git URL and ref, tarball, "
      + "giget source or folder), keeping their enabled state and data; a failed update leaves the old one in place",
  },
  args: UPDATE_ARGS,
  async run({ rawArgs, args }) {
    // citty keeps one positional; every name given counts.
    const names = parseArgs(rawArgs, UPDATE_ARGS)._.filter((n) => n !== "");
    const roots = rootsFor(args.cwd);
    const scope = scopeOf(args);
    const idleTimeoutMs = parseTimeoutMs(args["timeout-ms"], DEFAULT_IDLE_TIMEOUT_MS);
    const installed = await listInstalled(roots);
    let chosen: InstalledExtension[];
    if (names.length > 0) chosen = names.map((name) => findInstalled(installed, name, scope));
    else {
      chosen = [];
      for (const ext of installed) {
        if ((!scope || ext.scope === scope) && !ext.source && !ext.error && (await readOrigin(ext.path))) chosen.push(ext);
      }
      if (chosen.length === 0) {
        process.stdout.write("No installed extension has a recorded source; nothing to update.\n");
        return 0;
      }
    }
    let failed = 0;
    for (const ext of chosen) {
      try {
        process.stdout.write(await updateOne(ext, roots, args.yes === true, idleTimeoutMs));
      } catch (err) {
        failed++;
        const message = err instanceof InstallCancelledError ? err.message : `${ext.name}: ${err instanceof Error ? err.message : String(err)}`;
        process.stderr.write(`zot: ${printable(message)}; the installed copy is unchanged\n`);
      }
    }
    return failed > 0 ? 1 : 0;
  },
});
