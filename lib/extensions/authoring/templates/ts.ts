// TypeScript extension on zot's TypeScript SDK. The SDK is vendored beside main.ts as one
// generated ES module (zot-sdk.mjs), so the scaffold needs no zot checkout and no npm install;
// run.sh starts main.ts with bun, the single-binary zot's own bun (ZOT_BUN), or deno (Node 20
// cannot run .ts).
import { renderReadme, sdkProtocolSection } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext } from "./types.ts";
import { sdkProgram } from "./sdk-program.ts";
import { TS_SDK_FILE, vendoredSdkFile, vendoredSdkSection } from "./vendored-sdk.ts";

export { TS_SDK_FILE } from "./vendored-sdk.ts";
const LAUNCHER = "run.sh";

function source({ name, command, tool }: TemplateContext): string {
  return `// ${name}: a zot extension written with zot's TypeScript SDK, which ${TS_SDK_FILE} beside this
// file holds in one module. ${LAUNCHER} starts this file with bun or deno (see README.md).
// Log with ext.log(...) (stderr, appended to $ZOT_HOME/logs/ext-${name}.log): stdout carries
// protocol frames only.
${sdkProgram({ name, command, tool }, true)}`;
}

/** Tries each runtime that runs TypeScript, then a bundled main.mjs under node. Uses no external
 * commands besides the runtimes, so it also explains itself on a bare PATH. */
function launcher({ name }: TemplateContext): string {
  return `#!/bin/sh
# Starts ${name}'s main.ts with the first runtime found that runs TypeScript: bun, the bun inside
# a single-binary zot (ZOT_BUN, set by zot), deno, or a Node.js that strips types itself (22.18+,
# 23.6+). Failing those, a main.mjs you bundled for Node (see README.md). Arguments are passed on.
case $0 in */*) here=\${0%/*} ;; *) here=. ;; esac
has() { command -v "$1" >/dev/null 2>&1; }

if has bun; then exec bun "$here/main.ts" "$@"; fi
# A zot built with \`bun build --compile\` carries bun and acts as it under BUN_BE_BUN=1.
if [ -n "\${ZOT_BUN:-}" ] && [ -x "$ZOT_BUN" ]; then
  BUN_BE_BUN=1
  export BUN_BE_BUN
  exec "$ZOT_BUN" "$here/main.ts" "$@"
fi
if has deno; then exec deno run -A "$here/main.ts" "$@"; fi
if has node && node -e 'process.exit(process.features.typescript ? 0 : 1)' 2>/dev/null; then
  exec node "$here/main.ts" "$@"
fi
if [ -f "$here/main.mjs" ] && has node; then exec node "$here/main.mjs" "$@"; fi

echo "${name}: cannot start main.ts: no TypeScript runtime on PATH. Install bun (https://bun.sh) or deno (https://deno.com), use Node.js 22.18 or newer, or bundle main.mjs for older Node (see README.md)." >&2
exit 127
`;
}

export const tsTemplate: ExtensionTemplate = {
  language: "typescript",
  summary: "TypeScript on zot's TypeScript SDK (written beside it as zot-sdk.mjs); runs with bun or deno",
  entry: "main.ts",
  exec: `./${LAUNCHER}`,
  description: ({ command, tool }) => `says hello (/${command}) and counts words (${tool})`,
  source,
  extraFiles: (ctx) => [{ path: LAUNCHER, content: launcher(ctx), executable: true }, vendoredSdkFile()],
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in TypeScript with zot's TypeScript SDK. It registers the slash
command \`/${ctx.command}\`, which answers with a short note, and the tool \`${ctx.tool}\`, which
the model can call to count the words, lines and characters of a text.`,
    files: [
      `\`main.ts\`: the program.`,
      `\`${LAUNCHER}\`: what \`extension.json\` runs; it starts \`main.ts\` with bun (or the one inside a single-binary zot), deno or a recent Node.js.`,
      `\`${TS_SDK_FILE}\`: zot's TypeScript SDK in one file, written by \`zot ext new\`; \`main.ts\` imports it.`,
    ],
    tryIt: ["# ask the model something that needs the tool", `zot -p "Use ${ctx.tool} to count the words in: to be or not to be"`],
    sections: [
      sdkProtocolSection(`The SDK in \`${TS_SDK_FILE}\``, ctx),
      `## Running TypeScript

Node.js 20 cannot run \`.ts\` files, so \`${LAUNCHER}\` uses the first of:

1. \`bun main.ts\` when \`bun\` is on PATH (https://bun.sh);
2. the bun built into zot, when zot is the single binary: zot then sets \`ZOT_BUN\` to itself,
   and \`BUN_BE_BUN=1 "$ZOT_BUN" main.ts\` runs the extension with nothing else installed;
3. \`deno run -A main.ts\` when \`deno\` is on PATH (https://deno.com);
4. \`node main.ts\` when Node.js strips types itself (22.18+, 23.6+);
5. \`node main.mjs\` when you have bundled \`main.mjs\` (below).

Otherwise it writes why on stderr (\`zot ext logs ${ctx.name}\`, \`zot ext doctor\`) and exits 127.

For machines with only an older Node.js, bundle once on a machine with bun and keep
\`main.mjs\` beside \`main.ts\` (rebuild it after every change to \`main.ts\`):

\`\`\`sh
bun build main.ts --target=node --format=esm --outfile=main.mjs
\`\`\`

On Windows, which has no \`sh\`, set \`"exec": "bun"\` and \`"args": ["main.ts"]\` in
\`extension.json\`.`,
      vendoredSdkSection("main.ts"),
    ],
  }),
};
