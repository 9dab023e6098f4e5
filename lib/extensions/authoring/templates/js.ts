// Plain Node.js extension on zot's TypeScript SDK, vendored beside main.mjs as zot-sdk.mjs (plain
// ES module JavaScript), so it runs on Node 20 with no build step and no npm install.
// The manifest runs `node main.mjs` rather than `./main.mjs` through a shebang: that needs no
// executable bit (lost by zip archives and some copies) and no /usr/bin/env, and works on Windows.
import { renderReadme, sdkProtocolSection } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext } from "./types.ts";
import { sdkProgram } from "./sdk-program.ts";
import { TS_SDK_FILE, vendoredSdkFile, vendoredSdkSection } from "./vendored-sdk.ts";

const ENTRY = "main.mjs";

function source({ name, command, tool }: TemplateContext): string {
  return `// ${name}: a zot extension in plain Node.js (20 or newer) on zot's TypeScript SDK, which
// ${TS_SDK_FILE} beside this file holds in one module. zot starts it as \`node ${ENTRY}\`.
// Log with ext.log(...) (stderr, appended to $ZOT_HOME/logs/ext-${name}.log): stdout carries
// protocol frames only.
${sdkProgram({ name, command, tool }, false)}`;
}

export const jsTemplate: ExtensionTemplate = {
  language: "javascript",
  summary: `plain Node.js 20+ on zot's TypeScript SDK (written beside it as ${TS_SDK_FILE}); no build, no npm install`,
  entry: ENTRY,
  exec: "node",
  args: [ENTRY],
  source,
  description: ({ command, tool }) => `says hello (/${command}) and counts words (${tool})`,
  extraFiles: () => [vendoredSdkFile()],
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in plain Node.js with zot's TypeScript SDK. It registers the slash
command \`/${ctx.command}\`, which answers with a short note, and the tool \`${ctx.tool}\`, which
the model can call to count the words, lines and characters of a text.`,
    files: [
      `\`${ENTRY}\`: the program, an ES module. zot runs it as \`node ${ENTRY}\` in this folder
  (\`"exec": "node"\`, \`"args": ["${ENTRY}"]\`), so it needs Node.js 20 or newer on PATH and no
  executable bit.`,
      `\`${TS_SDK_FILE}\`: zot's TypeScript SDK in one file, written by \`zot ext new\`; \`${ENTRY}\` imports it.`,
    ],
    tryIt: ["# ask the model something that needs the tool", `zot -p "Use ${ctx.tool} to count the words in: to be or not to be"`],
    sections: [
      sdkProtocolSection(`The SDK in \`${TS_SDK_FILE}\``, ctx),
      `## Running it by hand

\`node ${ENTRY}\` in this folder starts it; it then waits for zot's frames on stdin (type
\`{"type":"shutdown"}\` and Enter to end it). There is nothing to build or install: add more
\`.mjs\` files beside it and import them, or npm packages with a \`package.json\` and
\`npm install\` here.`,
      vendoredSdkSection(ENTRY),
    ],
  }),
};
