// The extension wire protocol: frame schemas for both directions, the JSONL codec, limits, event
// names, and the request layer (a frame transport and the pending requests riding on it).
export * from "./limits.ts";
export * from "../events/names.ts";
export * from "./blocks.ts";
export * from "./extension-frames.ts";
export * from "./host-frames.ts";
export * from "./parse.ts";
export * from "./codec.ts";
export * from "./transport.ts";
export * from "./pending-requests.ts";
export { isJsonObject, sameJson } from "./json-object.ts";
export { describeIssues } from "./issues.ts";
