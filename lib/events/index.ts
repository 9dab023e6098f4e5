// The one event vocabulary: every observation the agent loop and the host emit, defined once as
// a valibot schema, with the TypeScript types inferred from the schemas. Only json/rpc add the
// Go zot's fields. This file only re-exports.
export * from "./parts.ts";
export * from "./lifecycle.ts";
export * from "./host.ts";
export * from "./names.ts";
export * from "./all-events.ts";
