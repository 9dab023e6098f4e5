// The one event vocabulary: every observation the agent loop and the host emit, defined once as
// a valibot schema, with the TypeScript types inferred from the schemas. The same objects feed
// the extension host's `event` frames, json/rpc NDJSON, the REPL renderer and the session
// writer; a consumer filters and formats, and only json/rpc add the Go zot's fields.
import { HOST_EVENT_SCHEMAS, type HostEvent } from "./host.ts";
import { STAMPED_LIFECYCLE_SCHEMAS, type StampedLifecycleEvent } from "./lifecycle.ts";
import { isLifecycleEventName } from "./names.ts";

export * from "./parts.ts";
export * from "./lifecycle.ts";
export * from "./host.ts";
export * from "./names.ts";

/** Every event, by its `type`: lifecycle events as the bus stamps them, then the host's. */
export const EVENT_SCHEMAS = { ...STAMPED_LIFECYCLE_SCHEMAS, ...HOST_EVENT_SCHEMAS };
export type EventType = keyof typeof EVENT_SCHEMAS;

export type ZotEvent = StampedLifecycleEvent | HostEvent;

export function isLifecycleEvent(event: ZotEvent): event is StampedLifecycleEvent {
  return isLifecycleEventName(event.type);
}
