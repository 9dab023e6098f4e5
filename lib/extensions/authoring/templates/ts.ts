// TypeScript extension on zot's TypeScript SDK. The SDK is vendored beside main.ts as one
// generated ES module (zot-sdk.mjs) with its declarations, so the scaffold needs no zot checkout
// and no npm install; run.sh starts main.ts with bun, the single-binary zot's own bun (ZOT_BUN),
// deno or a type-stripping Node, and otherwise main.mjs: the same program without types, written
// beside it, so it runs as created on Node 20 too. package.json and tsconfig.json make
// `tsc --noEmit` pass as created.
import { renderReadme, sdkProtocolSection } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext, TemplateFile } from "./types.ts";
import { sdkProgram } from "./sdk-program.ts";
import { TS_SDK_DECLARATIONS, TS_SDK_DECLARATIONS_FILE } from "./sdk-declarations.ts";
import { TS_SDK_FILE, vendoredSdkFile, vendoredSdkSection } from "./vendored-sdk.ts";

export { TS_SDK_FILE } from "./vendored-sdk.ts";
const LAUNCHER = "run.sh";
const NODE_ENTRY = "main.mjs";
/** The README's build command, also package.json's "build": bun is on npm, so Node-only machines get it with npm install. */
const BUILD = `bun build main.ts --target=node --format=esm --outfile=${NODE_ENTRY}`;

function source({ name, command, tool }: TemplateContext): string {
  return `// ${name}: a zot extension written with zot's TypeScript SDK, which ${TS_SDK_FILE} beside this
// file holds in one module. ${LAUNCHER} starts this file with bun or deno (see README.md).
// Log with ext.log(...) (stderr, appended to $ZOT_HOME/logs/ext-${name}.log): stdout carries
// protocol frames only.
${sdkProgram({ name, command, tool }, true)}`;
}

/** main.ts without its types, for a Node that cannot run TypeScript. */
function nodeEntry({ name, command, tool }: TemplateContext): string {
  return `// ${name}: main.ts without its types, written by \`zot ext new\` so ${LAUNCHER} runs on Node.js 20 with
// no TypeScript runtime. After changing main.ts, rebuild it: npm install && npm run build.
${sdkProgram({ name, command, tool }, false)}`;
}

function packageJson({ command }: TemplateContext): string {
  return `${JSON.stringify({
    name: command,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: { build: BUILD, typecheck: "tsc --noEmit" },
    devDependencies: { bun: "^1.1.0", typescript: "^5.6.0" },
  }, null, 2)}\n`;
}

/** No @types/node and no DOM: main.ts and zot-sdk.d.mts use only the language's own library. */
function tsconfig(): string {
  return `${JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "bundler",
      lib: ["ES2022"],
      types: [],
      strict: true,
      noEmit: true,
      isolatedModules: true,
    },
    include: ["main.ts"],
  }, null, 2)}\n`;
}

function projectFiles(ctx: TemplateContext): TemplateFile[] {
  return [
    { path: NODE_ENTRY, content: nodeEntry(ctx) },
    { path: "package.json", content: packageJson(ctx) },
    { path: "tsconfig.json", content: tsconfig() },
    { path: TS_SDK_DECLARATIONS_FILE, content: TS_SDK_DECLARATIONS },
  ];
}

/** Tries each runtime that runs TypeScript, then a bundled main.mjs under node. Uses no external
 * commands besides the runtimes, so it also explains itself on a bare PATH. */
function launcher({ name }: TemplateContext): string {
  return `#!/bin/sh
# Starts ${name}'s main.ts with the first runtime found that runs TypeScript: bun, the bun inside
# a single-binary zot (ZOT_BUN, set by zot), deno, or a Node.js that strips types itself (22.18+,
# 23.6+). Failing those, main.mjs under node: main.ts without types (npm run build remakes it). Arguments are passed on.
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
if [ -f "$here/${NODE_ENTRY}" ] && has node; then
  if [ "$here/main.ts" -nt "$here/${NODE_ENTRY}" ]; then
    echo "${name}: ${NODE_ENTRY} may be older than main.ts: run npm run build (see README.md)" >&2
  fi
  exec node "$here/${NODE_ENTRY}" "$@"
fi

echo "${name}: cannot start main.ts: no TypeScript runtime on PATH. Install bun (https://bun.sh) or deno (https://deno.com), use Node.js 22.18 or newer, or build ${NODE_ENTRY} for older Node (npm run build, see README.md)." >&2
exit 127
`;
}

export const tsTemplate: ExtensionTemplate = {
  language: "typescript",
  summary: "TypeScript on zot's TypeScript SDK (written beside it as zot-sdk.mjs with types); runs with bun, deno or Node 20+",
  entry: "main.ts",
  exec: `./${LAUNCHER}`,
  description: ({ command, tool }) => `says hello (/${command}) and counts words (${tool})`,
  source,
  extraFiles: (ctx) => [{ path: LAUNCHER, content: launcher(ctx), executable: true }, vendoredSdkFile(), ...projectFiles(ctx)],
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in TypeScript with zot's TypeScript SDK. It registers the slash
command \`/${ctx.command}\`, which answers with a short note, and the tool \`${ctx.tool}\`, which
the model can call to count the words, lines and characters of a text.`,
    files: [
      `\`main.ts\`: the program.`,
      `\`${LAUNCHER}\`: what \`extension.json\` runs; it starts \`main.ts\` with bun (or the one inside a single-binary zot), deno or a recent Node.js.`,
      `\`${TS_SDK_FILE}\`: zot's TypeScript SDK in one file, written by \`zot ext new\`; \`main.ts\` imports it.`,
      `\`${TS_SDK_DECLARATIONS_FILE}\`: its types, for editors and \`tsc\` (no \`@types/node\` needed).`,
      `\`${NODE_ENTRY}\`: \`main.ts\` without types, for a Node.js that cannot run TypeScript; \`npm run build\` remakes it.`,
      `\`package.json\`, \`tsconfig.json\`: \`npm install\`, then \`npm run typecheck\` (\`tsc --noEmit\`) and \`npm run build\`.`,
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
5. \`node ${NODE_ENTRY}\`: \`${NODE_ENTRY}\` is \`main.ts\` without types, written by \`zot ext new\`.

Otherwise it writes why on stderr (\`zot ext doctor\` shows it) and exits 127.

\`${NODE_ENTRY}\` is only as new as its last build: after changing \`main.ts\`, remake it (bun
is on npm, so this needs only Node.js and npm; ${LAUNCHER} warns on stderr when \`main.ts\` is newer):

\`\`\`sh
npm install        # once: bun (the build tool) and typescript
npm run build      # ${BUILD}
npm run typecheck  # tsc --noEmit
\`\`\`

On Windows, which has no \`sh\`, set \`"exec": "bun"\` and \`"args": ["main.ts"]\` in
\`extension.json\`.`,
      vendoredSdkSection("main.ts"),
    ],
  }),
};
