// `zot ext remove|enable|disable <name>`: by manifest name or folder name, project and global.
import { defineCommand } from "citty";
import { listInstalled, type InstalledExtension } from "../../extensions/install/installed.ts";
import { findInstalled, removeInstalled, setEnabled } from "../../extensions/install/manage.ts";
import { cwdArg, rootsFor, scopeOf } from "./args.ts";
import { confirm } from "./ask.ts";
import { printable } from "../../terminal-text.ts";

const targetArgs = {
  name: { type: "positional", description: "Manifest name or folder name", required: true },
  project: { type: "boolean", description: "Only consider project installs (./.zot/extensions)" },
  global: { type: "boolean", description: "Only consider global installs ($ZOT_HOME/extensions)" },
  ...cwdArg,
} as const;

export async function target(args: { name: string; cwd?: string; project?: boolean; global?: boolean }) {
  const roots = rootsFor(args.cwd);
  const ext = findInstalled(await listInstalled(roots), args.name, scopeOf(args));
  return { roots, ext };
}

function describe(ext: InstalledExtension): string {
  return `${ext.name} (${ext.scope}, ${ext.path})`;
}

export const removeCommand = defineCommand({
  meta: { name: "remove", description: "Delete an installed extension's folder, including state kept inside it" },
  args: {
    ...targetArgs,
    yes: { type: "boolean", alias: "y", description: "Do not ask for confirmation" },
  },
  async run({ args }) {
    const { roots, ext } = await target(args);
    if (!args.yes) {
      if (!process.stdin.isTTY) {
        throw new Error(`not removing ${describe(ext)} without confirmation: pass --yes`);
      }
      if (!(await confirm(`Remove ${describe(ext)} and everything in it? [y/N] `))) {
        process.stderr.write(printable("Nothing removed.\n"));
        return 1;
      }
    }
    await removeInstalled(ext, roots);
    process.stdout.write(printable(`Removed ${describe(ext)}.\n`
      + "Running zot sessions keep the extension until they exit.\n"));
    return 0;
  },
});

function toggleCommand(enabled: boolean) {
  const verb = enabled ? "enable" : "disable";
  return defineCommand({
    meta: {
      name: verb,
      description: enabled
        ? "Re-enable a disabled extension (sets \"enabled\": true in its manifest)"
        : "Disable an extension without removing it (sets \"enabled\": false in its manifest)",
    },
    args: targetArgs,
    async run({ args }) {
      const { ext } = await target(args);
      const { changed } = await setEnabled(ext, enabled);
      const state = enabled ? "enabled" : "disabled";
      process.stdout.write(printable(changed
        ? `${ext.name} is now ${state} (${ext.path}); this takes effect the next time zot starts.\n`
        : `${ext.name} is already ${state} (${ext.path}).\n`));
      return 0;
    },
  });
}

export const enableCommand = toggleCommand(true);
export const disableCommand = toggleCommand(false);
