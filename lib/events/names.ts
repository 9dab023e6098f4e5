// The lifecycle events an extension can observe and the events it can intercept: the names,
// read off the one definition of the events (lifecycle.ts), so a name cannot exist without its
// schema. The host, the SDKs, the agent's event stream and `zot ext test` all read them here.
import { LIFECYCLE_PAYLOAD_SCHEMAS, type LifecycleEventName } from "./lifecycle.ts";

export type { LifecycleEventName } from "./lifecycle.ts";

export const LIFECYCLE_EVENTS = Object.keys(LIFECYCLE_PAYLOAD_SCHEMAS) as readonly LifecycleEventName[];

/** Interception points: `before_agent_start` is one without an event of its own. */
export const INTERCEPTABLE_EVENTS = ["before_agent_start", "tool_call", "turn_start", "assistant_message"] as const;
export type InterceptableEventName = (typeof INTERCEPTABLE_EVENTS)[number];

const lifecycleNames: ReadonlySet<string> = new Set(LIFECYCLE_EVENTS);
const interceptableNames: ReadonlySet<string> = new Set(INTERCEPTABLE_EVENTS);

export function isLifecycleEventName(name: string): name is LifecycleEventName {
  return lifecycleNames.has(name);
}

export function isInterceptableEventName(name: string): name is InterceptableEventName {
  return interceptableNames.has(name);
}
