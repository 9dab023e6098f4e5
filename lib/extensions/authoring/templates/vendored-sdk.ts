// zot's TypeScript SDK as the file `zot ext new` writes beside a ts or js scaffold: one plain ES
// module (node: built-ins only; ext.serve loads ws), so the extension needs no zot checkout and no npm install.
import { ZOT_VERSION } from "../../../version.ts";
import { TS_SDK_BUNDLE } from "./ts-sdk.generated.ts";
import type { TemplateFile } from "./types.ts";

export const TS_SDK_FILE = "zot-sdk.mjs";

/** The vendored SDK file: a two-line header naming the zot that wrote it, then the bundle. */
export function vendoredSdkFile(): TemplateFile {
  return {
    path: TS_SDK_FILE,
    content: `// zot's TypeScript SDK in one ES module, written by \`zot ext new\` (zot ${ZOT_VERSION}).\n`
      + "// Generated from zot's lib/sdk: replace it with a newer copy rather than editing it.\n"
      + TS_SDK_BUNDLE,
  };
}

/** The README section explaining the vendored SDK (`importer`: the file that imports it). */
export function vendoredSdkSection(importer: string): string {
  return `## The vendored SDK

\`${TS_SDK_FILE}\` is zot's TypeScript SDK (\`lib/sdk\`, with the protocol code it uses) bundled
into one ES module that imports only \`node:\` built-ins; \`${importer}\` imports it. Vendoring it
means the extension runs offline, without a zot checkout or \`npm install\`, and keeps working when
zot is upgraded. Only \`ext.serve()\` (serving the extension over WebSocket instead of \`ext.run()\`)
loads one package, \`ws\`: built into Bun, \`npm install ws\` here for Node or Deno. It is plain JavaScript; its types are
\`zot-sdk.d.mts\` (written by the TypeScript template), and the same typed API is the npm package \`@zot-cli/zot\` (\`mod.ts\` in zot's repository: \`createExtension\`,
\`display\`, \`prompt\`, \`textResult\`, \`errorResult\`, …). To move to a newer SDK, scaffold a throwaway extension with a
newer zot and copy its \`${TS_SDK_FILE}\`.`;
}
