// The extension wire protocol: frame schemas for both directions, the JSONL codec, limits and
// event names.
export * from "./limits.ts";
export * from "./event-names.ts";
export * from "./blocks.ts";
export * from "./extension-frames.ts";
export * from "./host-frames.ts";
export * from "./parse.ts";
export * from "./codec.ts";
export { describeIssues } from "./issues.ts";
