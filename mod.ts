// zot's public surface: the TypeScript SDK for extension authors, the protocol types, the
// embedding API (run zot's agent inside another program), and the schema of the json/rpc
// streams for programs that drive zot.
export * from "./lib/protocol/index.ts";
export * from "./lib/sdk/index.ts";
export type { Manifest } from "./lib/extensions/catalog/manifest.ts";
export { ZOT_VERSION } from "./lib/version.ts";

// Embedding: `createZot(config)` builds a run the way the CLI does.
export { createZot, type EmbedOptions, type Zot } from "./lib/app/embed.ts";
export { resolveRunConfig, type RunConfig, type RunConfigInput } from "./lib/app/run-config.ts";
export type { Runtime } from "./lib/app/runtime.ts";
export type { RunResult } from "./lib/agent/contracts/loop-options.ts";
export type { HostEvent, StampedLifecycleEvent, ZotEvent } from "./lib/events/index.ts";
export type { ConfirmAnswer, Confirmer, ConfirmRequest } from "./lib/agent/loop/permissions.ts";

// The json/rpc streams: valibot schemas of every line, command and response.
export * as streamSchema from "./lib/modes/stream-schema/index.ts";
