// Every event line json and rpc modes print (host.md "One event vocabulary" and "Compatibility
// with the Go zot's json and rpc streams"), by `type`. Lifecycle events carry the stamp fields.
import * as v from "valibot";
import {
  args, count, int, RUN_STATUSES, stamp, STOP_REASONS, StreamBlockSchema, time, ToolContentSchema, usageFields, UsageSchema,
} from "./parts.ts";

const event = <T extends string, E extends v.ObjectEntries>(type: T, entries: E) => v.looseObject({ type: v.literal(type), ...entries });
const lifecycle = <T extends string, E extends v.ObjectEntries>(type: T, entries: E) => event(type, { ...entries, ...stamp });
const origin = { origin_extension: v.optional(v.string()) };
const panel = { extension: v.string(), panel_id: v.string(), title: v.optional(v.string()), lines: v.optional(v.array(v.string())), footer: v.optional(v.string()) };

export const STREAM_EVENT_SCHEMAS = {
  // ---- the extension protocol's lifecycle events, with zot's and the Go zot's extra fields ----
  session_start: lifecycle("session_start", {}),
  session_end: lifecycle("session_end", { reason: v.picklist(["shutdown", "session_switch", "cwd_change"]) }),
  user_prompt_submit: lifecycle("user_prompt_submit", { text: v.optional(v.string()), queued: v.optional(v.boolean()), image_count: v.optional(count) }),
  turn_start: lifecycle("turn_start", { step: int }),
  turn_end: lifecycle("turn_end", { stop: v.picklist(STOP_REASONS), error: v.optional(v.string()) }),
  tool_call: lifecycle("tool_call", {
    tool_id: v.string(), tool_name: v.string(), tool_args: args, ...origin,
    id: v.string(), name: v.string(), args,
  }),
  tool_confirmation_requested: lifecycle("tool_confirmation_requested", { tool_id: v.string(), tool_name: v.string(), tool_preview: v.string(), ...origin }),
  permission_decision: lifecycle("permission_decision", {
    tool_id: v.string(), tool_name: v.string(),
    decision: v.picklist(["approved", "denied", "cancelled"]),
    source: v.picklist(["user", "remembered", "policy", "yolo"]),
    stage: v.picklist(["pre_execution", "tool_execution"]),
    reason: v.optional(v.string()), rewritten_by: v.optional(v.array(v.string())), ...origin,
  }),
  tool_result: lifecycle("tool_result", {
    tool_id: v.string(), tool_name: v.string(), tool_args: v.optional(args), tool_args_raw: v.optional(v.string()),
    status: v.picklist([...RUN_STATUSES, "blocked"]), executed: v.boolean(),
    /** `diff`: the unified diff of a file change (edit, write), within the observation budget. */
    result: v.looseObject({ content: v.array(ToolContentSchema), is_error: v.boolean(), diff: v.optional(v.string()), truncated: v.optional(v.boolean()) }),
    ...origin,
    id: v.string(), is_error: v.boolean(), content: v.array(ToolContentSchema),
  }),
  /** Every model response; `text` is "" when it was only tool calls (or its text was suppressed). */
  assistant_message: lifecycle("assistant_message", { text: v.string(), content: v.array(StreamBlockSchema), time }),
  pre_compact: lifecycle("pre_compact", { compaction_id: v.string(), message_count: count, token_estimate: count }),
  post_compact: lifecycle("post_compact", {
    compaction_id: v.string(), message_count: count, token_estimate: count, status: v.picklist(RUN_STATUSES), error: v.optional(v.string()),
  }),
  subagent_start: lifecycle("subagent_start", { agent_id: v.string(), agent_run_id: v.string(), name: v.string() }),
  subagent_stop: lifecycle("subagent_stop", {
    agent_id: v.string(), agent_run_id: v.string(), name: v.string(), status: v.picklist(RUN_STATUSES), error: v.optional(v.string()),
  }),

  // ---- host events ----
  session: event("session", {
    session_id: v.string(), cwd: v.string(), provider: v.string(), model: v.string(), zot_version: v.string(), protocol_version: int,
  }),
  user_message: event("user_message", { content: v.array(StreamBlockSchema), time }),
  assistant_start: event("assistant_start", {}),
  text_delta: event("text_delta", { delta: v.string() }),
  thinking_delta: event("thinking_delta", { delta: v.string() }),
  tool_use_start: event("tool_use_start", { id: v.string(), name: v.string() }),
  tool_use_args: event("tool_use_args", { id: v.string(), delta: v.string() }),
  tool_use_end: event("tool_use_end", { id: v.string() }),
  tool_progress: event("tool_progress", { tool_id: v.string(), text: v.string(), id: v.string() }),
  /** `cumulative.children`: the part of the totals that subagents spent (included in the totals). */
  usage: event("usage", { ...usageFields, cumulative: v.looseObject({ ...usageFields, children: v.optional(UsageSchema) }) }),
  ext_notify: event("ext_notify", { extension: v.string(), level: v.picklist(["info", "success", "warn", "error"]), message: v.string() }),
  ext_display: event("ext_display", { extension: v.string(), text: v.string() }),
  ext_clear_notes: event("ext_clear_notes", { extension: v.string() }),
  ext_error: event("ext_error", { extension: v.string(), message: v.string(), log_path: v.optional(v.string()) }),
  ext_panel_open: event("ext_panel_open", panel),
  ext_panel_render: event("ext_panel_render", panel),
  ext_panel_close: event("ext_panel_close", { extension: v.string(), panel_id: v.string() }),
  compact_done: event("compact_done", { summary: v.string() }),
  /** A host error; also the line right before the `done` of a failed run or command. */
  error: event("error", { message: v.string() }),
  retry: event("retry", { attempt: int, delay_ms: count, status: v.optional(int), message: v.string() }),
  /** Ends a prompt, a command or a compaction; the last line of json mode. */
  done: event("done", { stop: v.picklist([...STOP_REASONS, "blocked"]), error: v.optional(v.string()) }),
} as const;

export type StreamEventType = keyof typeof STREAM_EVENT_SCHEMAS;
export type StreamEvent = { [K in StreamEventType]: v.InferOutput<(typeof STREAM_EVENT_SCHEMAS)[K]> }[StreamEventType];
