// Every event of the vocabulary by its type, lifecycle and host events together, and the test
// that tells them apart.
import { HOST_EVENT_SCHEMAS, type HostEvent } from "./host.ts";
import { STAMPED_LIFECYCLE_SCHEMAS, type StampedLifecycleEvent } from "./lifecycle.ts";
import { isLifecycleEventName } from "./names.ts";

/** Every event, by its `type`: lifecycle events as the bus stamps them, then the host's. */
export const EVENT_SCHEMAS = { ...STAMPED_LIFECYCLE_SCHEMAS, ...HOST_EVENT_SCHEMAS };
export type EventType = keyof typeof EVENT_SCHEMAS;

export type ZotEvent = StampedLifecycleEvent | HostEvent;

export function isLifecycleEvent(event: ZotEvent): event is StampedLifecycleEvent {
  return isLifecycleEventName(event.type);
}
