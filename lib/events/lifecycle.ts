// The 14 lifecycle events of the extension protocol, each defined once, payloads exactly as
// extensions.md ("Lifecycle payloads") lists them. The EventBus adds the stamp (session_id, cwd,
// sequence); json/rpc modes add the Go zot's fields on their own lines (lib/modes/event-stream.ts).
import * as v from "valibot";
import { args, count, int, RUN_STATUSES, stamp, STOP_REASONS, TOOL_STATUSES, ToolContentSchema } from "./parts.ts";

const payload = <T extends string, E extends v.ObjectEntries>(type: T, entries: E) => v.object({ type: v.literal(type), ...entries });
/** Set when the call came from an extension (`call_tool`, or a `tool_prompt` action). */
const origin = { origin_extension: v.optional(v.string()) };
const toolIdentity = { tool_id: v.string(), tool_name: v.string() };
/** Absent `tool_args` means the model's arguments were not a JSON object: `tool_args_raw` carries them. */
const toolArgs = { tool_args: v.optional(args), tool_args_raw: v.optional(v.string()) };
const compaction = { compaction_id: v.string(), message_count: count, token_estimate: count };
const subagent = { agent_id: v.string(), agent_run_id: v.string(), name: v.string() };

export const PERMISSION_DECISIONS = ["approved", "denied", "cancelled"] as const;
export const PERMISSION_SOURCES = ["user", "remembered", "policy", "yolo"] as const;
export const PERMISSION_STAGES = ["pre_execution", "tool_execution"] as const;
export const SESSION_END_REASONS = ["shutdown", "session_switch", "cwd_change"] as const;

/** The payload of each lifecycle event, by name, in the protocol's order of the names. */
export const LIFECYCLE_PAYLOAD_SCHEMAS = {
  session_start: payload("session_start", {}),
  session_end: payload("session_end", { reason: v.picklist(SESSION_END_REASONS) }),
  user_prompt_submit: payload("user_prompt_submit", { text: v.optional(v.string()), queued: v.optional(v.boolean()), image_count: v.optional(count) }),
  turn_start: payload("turn_start", { step: int }),
  turn_end: payload("turn_end", { stop: v.picklist(STOP_REASONS), error: v.optional(v.string()) }),
  tool_call: payload("tool_call", { ...toolIdentity, ...toolArgs, ...origin }),
  tool_result: payload("tool_result", {
    ...toolIdentity, ...toolArgs,
    status: v.picklist(TOOL_STATUSES), executed: v.boolean(),
    /** `diff`: the unified diff of a file change (edit, write), within the observation budget. */
    result: v.object({ content: v.array(ToolContentSchema), is_error: v.boolean(), diff: v.optional(v.string()), truncated: v.optional(v.boolean()) }),
    ...origin,
  }),
  tool_confirmation_requested: payload("tool_confirmation_requested", { ...toolIdentity, tool_preview: v.string(), ...origin }),
  permission_decision: payload("permission_decision", {
    ...toolIdentity,
    decision: v.picklist(PERMISSION_DECISIONS),
    source: v.picklist(PERMISSION_SOURCES),
    stage: v.picklist(PERMISSION_STAGES),
    reason: v.optional(v.string()),
    /** The extensions whose tool_call interception rewrote the arguments that were decided on. */
    rewritten_by: v.optional(v.array(v.string())),
    ...origin,
  }),
  /** The visible text ("" for a response that was only tool calls, or whose text was suppressed). */
  assistant_message: payload("assistant_message", { text: v.string() }),
  pre_compact: payload("pre_compact", compaction),
  post_compact: payload("post_compact", { ...compaction, status: v.picklist(RUN_STATUSES), error: v.optional(v.string()) }),
  subagent_start: payload("subagent_start", subagent),
  subagent_stop: payload("subagent_stop", { ...subagent, status: v.picklist(RUN_STATUSES), error: v.optional(v.string()) }),
} as const;

type PayloadSchemas = typeof LIFECYCLE_PAYLOAD_SCHEMAS;
export type LifecycleEventName = keyof PayloadSchemas;

/** The same events as the bus delivers them: the payload and the stamp. */
export const STAMPED_LIFECYCLE_SCHEMAS = Object.fromEntries(
  Object.entries(LIFECYCLE_PAYLOAD_SCHEMAS).map(([name, schema]) => [name, v.object({ ...schema.entries, ...stamp })]),
) as { [K in LifecycleEventName]: Stamped<PayloadSchemas[K]> };
type Stamped<S> = S extends v.ObjectSchema<infer E extends v.ObjectEntries, undefined> ? v.ObjectSchema<E & typeof stamp, undefined> : never;

/** Fields every lifecycle notification carries, stamped by the EventBus. */
export type Stamp = v.InferOutput<v.ObjectSchema<typeof stamp, undefined>>;
export type LifecyclePayload = { [K in LifecycleEventName]: v.InferOutput<PayloadSchemas[K]> }[LifecycleEventName];
export type StampedLifecycleEvent = LifecyclePayload & Stamp;

export type PermissionDecision = (typeof PERMISSION_DECISIONS)[number];
export type PermissionSource = (typeof PERMISSION_SOURCES)[number];
export type PermissionStage = (typeof PERMISSION_STAGES)[number];
