// zot's public surface: the TypeScript SDK for extension authors and the protocol types.
export * from "./lib/protocol/index.ts";
export * from "./lib/sdk/index.ts";
export type { Manifest } from "./lib/extensions/manifest.ts";
export { ZOT_VERSION } from "./lib/version.ts";
