// `zot ext install <source> [--project] [--force] [--timeout-ms N]`.
import { defineCommand } from "citty";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../../extensions/install/download.ts";
import { installExtension } from "../../extensions/install/index.ts";
import { cwdArg, parseTimeoutMs, projectDir, rootsFor } from "./args.ts";

export const installCommand = defineCommand({
  meta: {
    name: "install",
    description: "Install an extension from a folder, a git URL or a giget source",
  },
  args: {
    source: {
      type: "positional",
      required: true,
      description: "A folder (copied; .git is skipped), a git URL (https://…, git@…, ssh://…, file://…, "
        + "*.git; shallow clone, #branch or #tag) or a giget source (gh:owner/repo/dir#ref, github:, "
        + "gitlab:, bitbucket:, sourcehut:, or an https://….tar.gz URL)",
    },
    project: { type: "boolean", description: "Install into ./.zot/extensions instead of $ZOT_HOME/extensions" },
    force: { type: "boolean", description: "Replace an existing install of the same name" },
    "timeout-ms": { type: "string", valueHint: "N",
      description: `Give up a download or clone after this long without progress (default ${DEFAULT_IDLE_TIMEOUT_MS})` },
    ...cwdArg,
  },
  async run({ args }) {
    const roots = rootsFor(args.cwd);
    const scope = args.project ? "project" : "global";
    const idleTimeoutMs = parseTimeoutMs(args["timeout-ms"], DEFAULT_IDLE_TIMEOUT_MS);
    const result = await installExtension({
      source: args.source,
      root: args.project ? roots.project : roots.global,
      // Sources are what the user typed in their shell, so they resolve against it, not --cwd.
      cwd: process.cwd(),
      force: Boolean(args.force),
      idleTimeoutMs,
      exitOnSignal: true,
      progress: (line) => process.stderr.write(`${line}\n`),
      warn: (line) => process.stderr.write(`zot: warning: ${line}\n`),
    });
    const version = result.manifest.version ? ` ${result.manifest.version}` : "";
    const lines = [
      `${result.replaced ? "Replaced" : "Installed"} ${result.name}${version} (${scope}) in ${result.path}`,
    ];
    if (result.manifest.enabled === false) lines.push(`It is disabled in its manifest; enable it with \`zot ext enable ${result.name}\`.`);
    const where = scope === "project" ? ` from ${projectDir(args.cwd)}` : "";
    lines.push(`Try it: start zot${where} (extensions load at startup); \`zot ext doctor\` shows whether it loads.`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  },
});
