// `zot upgrade [--version X] [--dry-run] [--force]`: argv to lib/upgrade. Exit 0 when upgraded or
// nothing was needed, 1 when refused or failed (nothing replaced), 2 on a usage error.
import { parseArgs } from "node:util";
import { NPM_PACKAGE } from "../package-name.ts";
import { installKind } from "../upgrade/install-kind.ts";
import { RELEASES, upgrade, UpgradeError } from "../upgrade/upgrade.ts";
import { DownloadError } from "../upgrade/download.ts";
import { ZOT_VERSION } from "../version.ts";
import { printable } from "../terminal-text.ts";
import { helpFor, type HelpOut } from "./usage.ts";

/** `zot upgrade --help`, in the layout of every other command's help. */
function usage(out: HelpOut): string {
  return helpFor({
    name: "zot upgrade",
    description: "Replaces this zot binary with the latest release for this machine (or release X), downloaded from where "
      + "install.sh downloads it and checked against the release's SHA256SUMS first.",
    usage: ["zot upgrade [--version X] [--dry-run] [--force]"],
    sections: [
      { title: "OPTIONS", rows: [
        ["--version X", "that release instead of the latest"],
        ["--dry-run", "say what would be downloaded and replaced, and change nothing"],
        ["--force", "reinstall even when that version is the one running"],
      ] },
      { title: "ENVIRONMENT", rows: [["ZOT_INSTALL_BASE", `a mirror with the same layout (default ${RELEASES})`]] },
      { title: "EXAMPLE", rows: [["", "zot upgrade --dry-run"]] },
    ],
    footer: `A zot installed with npm upgrades with npm install -g ${NPM_PACKAGE}@latest; a checkout with git pull && npm ci && npm run build.`,
  }, out, process.env);
}

export async function runUpgrade(argv: string[]): Promise<number> {
  let values: { version?: string; "dry-run"?: boolean; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: {
      version: { type: "string" }, "dry-run": { type: "boolean" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" },
    } }));
  } catch (err) {
    process.stderr.write(`zot upgrade: ${(err as Error).message}\n\n${usage(process.stderr)}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage(process.stdout));
    return 0;
  }
  try {
    await upgrade({
      version: values.version, dryRun: values["dry-run"], force: values.force,
      install: installKind(), currentVersion: ZOT_VERSION, env: process.env,
      // Lines quote a mirror's file names and the new binary's --version: shown as text only.
      say: (line) => process.stdout.write(`${printable(line)}\n`),
    });
    return 0;
  } catch (err) {
    if (!(err instanceof UpgradeError || err instanceof DownloadError)) throw err;
    process.stderr.write(`zot upgrade: ${printable(err.message)}\n`);
    return 1;
  }
}
