// The lifecycle events an extension can observe and the events it can intercept: the one list
// of their names. The host, the SDKs, the agent's event stream and `zot ext test` all read it here.

export const LIFECYCLE_EVENTS = [
  "session_start",
  "session_end",
  "user_prompt_submit",
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_result",
  "tool_confirmation_requested",
  "permission_decision",
  "assistant_message",
  "pre_compact",
  "post_compact",
  "subagent_start",
  "subagent_stop",
] as const;
export type LifecycleEventName = (typeof LIFECYCLE_EVENTS)[number];

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
