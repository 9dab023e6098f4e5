// The lifecycle events an extension can observe and the events it can intercept: the names,
// read off the one definition of the events (lifecycle.ts), so a name cannot exist without its
// schema. The host, the SDKs, the agent's event stream and `zot ext test` all read them here.
import { LIFECYCLE_PAYLOAD_SCHEMAS, type LifecycleEventName } from "./lifecycle.ts";

export type { LifecycleEventName } from "./lifecycle.ts";

export const LIFECYCLE_EVENTS = Object.keys(LIFECYCLE_PAYLOAD_SCHEMAS) as readonly LifecycleEventName[];

/**
 * Interception points an extension may subscribe to only after both sides named the
 * `INTERCEPT_V2` capability (an older host or extension never sees them). `before_agent_end`
 * (the agent is about to end its run) and `tool_confirmation` (the user is about to be asked to
 * confirm a call) have no event of their own.
 */
export const INTERCEPT_V2_EVENTS = ["tool_result", "user_prompt_submit", "before_agent_end", "tool_confirmation"] as const;

/** Interception points: `before_agent_start` and `before_agent_end` are ones without an event of their own. */
export const INTERCEPTABLE_EVENTS = ["before_agent_start", "tool_call", "turn_start", "assistant_message", ...INTERCEPT_V2_EVENTS] as const;
export type InterceptableEventName = (typeof INTERCEPTABLE_EVENTS)[number];

/** The hello capability that opens the interception additions (answers, points, deadlines). */
export const INTERCEPT_V2 = "intercept_v2";

const lifecycleNames: ReadonlySet<string> = new Set(LIFECYCLE_EVENTS);
const interceptableNames: ReadonlySet<string> = new Set(INTERCEPTABLE_EVENTS);

export function isLifecycleEventName(name: string): name is LifecycleEventName {
  return lifecycleNames.has(name);
}

export function isInterceptableEventName(name: string): name is InterceptableEventName {
  return interceptableNames.has(name);
}

const v2Names: ReadonlySet<string> = new Set(INTERCEPT_V2_EVENTS);

/** Whether intercepting `name` needs the `intercept_v2` capability. */
export function needsInterceptV2(name: string): boolean {
  return v2Names.has(name);
}
