// `zot ext new <name> [--lang ts|js|python|sh] [--project]`: scaffold a working extension
// (manifest, program, README) that passes `zot ext doctor` as created.
import { defineCommand } from "citty";
import {
  DEFAULT_TEMPLATE, isTemplateLanguage, scaffoldExtension, TEMPLATES, validateNewName,
} from "../../extensions/authoring/templates/index.ts";
import { loadManifest } from "../../extensions/catalog/manifest.ts";
import { trustProject } from "../../extensions/catalog/trust/records.ts";
import { cwdArg, rootsFor, UsageError } from "./args.ts";

const languages = Object.keys(TEMPLATES).join("|");
const width = Math.max(...Object.keys(TEMPLATES).map((k) => k.length));

export const newCommand = defineCommand({
  meta: {
    name: "new",
    description: "Create a working extension (extension.json, program, README.md) from a template shipped inside\n"
      + "zot; it passes `zot ext doctor` as created. Templates (--lang):\n"
      + Object.entries(TEMPLATES).map(([key, t]) => `  ${key.padEnd(width)}  ${t.summary}`).join("\n") + "\n",
  },
  args: {
    name: { type: "positional", description: "Name of the extension (and of its folder and command)", required: true },
    lang: { type: "string", valueHint: languages, description: `Template language (default ${DEFAULT_TEMPLATE})` },
    project: { type: "boolean", description: "Create it in ./.zot/extensions instead of $ZOT_HOME/extensions" },
    ...cwdArg,
  },
  async run({ args }) {
    const lang = args.lang ?? DEFAULT_TEMPLATE;
    if (!isTemplateLanguage(lang)) throw new UsageError(`--lang must be one of ${languages}, got "${lang}"`);
    const problem = validateNewName(args.name);
    if (problem) throw new UsageError(problem);
    const roots = rootsFor(args.cwd);
    const result = await scaffoldExtension({
      name: args.name,
      template: TEMPLATES[lang],
      root: args.project ? roots.project : roots.global,
    });
    // The user just wrote it into their project: it is trusted there (until its manifest changes).
    if (args.project) await trustProject(roots.paths, roots.cwd, [{ manifest: (await loadManifest(result.path)).manifest, dir: result.path }], true);
    const tryIt = [[`zot --ext ${result.path}`, `load it for one session, then type /${result.command}`],
      ["zot ext doctor", "check that it loads and what it registers"]];
    const width = Math.max(...tryIt.map(([cmd]) => cmd.length));
    process.stdout.write([
      `Created ${args.name} (${lang}, ${args.project ? "project" : "global"}) in ${result.path}`,
      ...result.files.map((f) => `  ${f}`),
      "Try it:",
      ...tryIt.map(([cmd, why]) => `  ${cmd.padEnd(width)}  # ${why}`),
      "",
    ].join("\n"));
    return 0;
  },
});
