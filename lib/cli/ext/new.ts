// `zot ext new <name|path> [--lang ts|js|python|sh] [--project]`: scaffold a working extension
// (manifest, program, README) that passes `zot ext doctor` as created: into zot's extensions
// folder by name, or into a folder of the author's choosing (a git checkout) by path.
import { basename, dirname, resolve } from "node:path";
import { defineCommand } from "citty";
import {
  DEFAULT_TEMPLATE, isTemplateLanguage, scaffoldExtension, TEMPLATES, validateNewName,
} from "../../extensions/authoring/templates/index.ts";
import { loadManifest } from "../../extensions/catalog/manifest.ts";
import { trustProject } from "../../extensions/catalog/trust/records.ts";
import { cwdArg, rootsFor, UsageError } from "./args.ts";

const languages = Object.keys(TEMPLATES).join("|");
const width = Math.max(...Object.keys(TEMPLATES).map((k) => k.length));

/** A path rather than a name: it has a slash (either kind) or starts with a dot. */
function isPathArgument(value: string): boolean {
  return /[\\/]/.test(value) || value.startsWith(".");
}

export const newCommand = defineCommand({
  meta: {
    name: "new",
    description: "Create a working extension (extension.json, program, README.md) from a template shipped inside\n"
      + "zot; it passes `zot ext doctor` as created. Templates (--lang):\n"
      + Object.entries(TEMPLATES).map(([key, t]) => `  ${key.padEnd(width)}  ${t.summary}`).join("\n") + "\n",
  },
  args: {
    name: { type: "positional", description: "Name of the extension (and of its folder and command), or a path (./my-ext: the folder to create; its last segment is the name)", required: true },
    lang: { type: "string", valueHint: languages, description: `Template language (default ${DEFAULT_TEMPLATE})` },
    project: { type: "boolean", description: "Create it in ./.zot/extensions instead of $ZOT_HOME/extensions" },
    ...cwdArg,
  },
  async run({ args }) {
    const lang = args.lang ?? DEFAULT_TEMPLATE;
    if (!isTemplateLanguage(lang)) throw new UsageError(`--lang must be one of ${languages}, got "${lang}"`);
    const target = isPathArgument(args.name) ? resolve(args.name) : undefined;
    if (target && args.project) throw new UsageError("--project places it in ./.zot/extensions: give a name, not a path, with it");
    const name = target ? basename(target) : args.name;
    const problem = validateNewName(name);
    if (problem) throw new UsageError(problem);
    const roots = rootsFor(args.cwd);
    const result = await scaffoldExtension({
      name,
      template: TEMPLATES[lang],
      root: target ? dirname(target) : args.project ? roots.project : roots.global,
    });
    // The user just wrote it into their project: it is trusted there (until its manifest changes).
    if (args.project) await trustProject(roots.paths, roots.cwd, [{ manifest: (await loadManifest(result.path)).manifest, dir: result.path }], true);
    const tryIt = [[`zot --ext ${result.path}`, `load it for one session, then type /${result.command}`],
      ...(target
        ? [[`zot ext install ${result.path}`, "install it for every session"], [`zot ext doctor --ext ${result.path}`, "check that it loads and what it registers"]]
        : [["zot ext doctor", "check that it loads and what it registers"]])];
    const width = Math.max(...tryIt.map(([cmd]) => cmd!.length));
    const where = target ? "folder" : args.project ? "project" : "global";
    process.stdout.write([
      `Created ${name} (${lang}, ${where}) in ${result.path}`,
      ...result.files.map((f) => `  ${f}`),
      "Try it:",
      ...tryIt.map(([cmd, why]) => `  ${cmd!.padEnd(width)}  # ${why}`),
      "",
    ].join("\n"));
    return 0;
  },
});
