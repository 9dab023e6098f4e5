// The host's observations beyond the lifecycle events (host.md, "One event vocabulary", and the
// client stream of "Compatibility with the Go zot's json and rpc streams"), each defined once.
// Extensions never receive them; json/rpc modes print them, the REPL renders them.
import * as v from "valibot";
import { count, int, STOP_REASONS, StreamBlockSchema, time, usageFields, UsageSchema } from "./parts.ts";

const event = <T extends string, E extends v.ObjectEntries>(type: T, entries: E) => v.object({ type: v.literal(type), ...entries });
const panel = { extension: v.string(), panel_id: v.string(), title: v.optional(v.string()), lines: v.optional(v.array(v.string())), footer: v.optional(v.string()) };

/** An extension's `notify` levels (the protocol's NOTIFY_LEVELS; the vocabulary test keeps them equal). */
export const NOTIFY_EVENT_LEVELS = ["info", "success", "warn", "error"] as const;

export const HOST_EVENT_SCHEMAS = {
  session: event("session", {
    session_id: v.string(), cwd: v.string(), provider: v.string(), model: v.string(), zot_version: v.string(), protocol_version: int,
  }),
  /** The prompt as it was appended to the transcript (when its run starts). */
  user_message: event("user_message", { content: v.array(StreamBlockSchema), time }),
  /** A model response is about to stream. */
  assistant_start: event("assistant_start", {}),
  text_delta: event("text_delta", { delta: v.string() }),
  thinking_delta: event("thinking_delta", { delta: v.string() }),
  /** A tool call's arguments stream in: start, argument text fragments, end. */
  tool_use_start: event("tool_use_start", { id: v.string(), name: v.string() }),
  tool_use_args: event("tool_use_args", { id: v.string(), delta: v.string() }),
  tool_use_end: event("tool_use_end", { id: v.string() }),
  tool_progress: event("tool_progress", { tool_id: v.string(), text: v.string() }),
  /** `cumulative`: the conversation's total, its subagents' included; `children` is their part, once one has returned. */
  usage: event("usage", { ...usageFields, cumulative: v.object({ ...usageFields, children: v.optional(UsageSchema) }) }),
  ext_notify: event("ext_notify", { extension: v.string(), level: v.picklist(NOTIFY_EVENT_LEVELS), message: v.string() }),
  ext_display: event("ext_display", { extension: v.string(), text: v.string() }),
  ext_clear_notes: event("ext_clear_notes", { extension: v.string() }),
  ext_error: event("ext_error", { extension: v.string(), message: v.string(), log_path: v.optional(v.string()) }),
  ext_panel_open: event("ext_panel_open", panel),
  ext_panel_render: event("ext_panel_render", panel),
  ext_panel_close: event("ext_panel_close", { extension: v.string(), panel_id: v.string() }),
  /** Ends every compaction attempt, after post_compact; the summary is empty when nothing was summarised. */
  compact_done: event("compact_done", { summary: v.string() }),
  /** A host error; also the line right before the `done` of a failed run or command. */
  error: event("error", { message: v.string() }),
  /** A model request failed and is tried again after `delay_ms` (attempt 1 is the first retry). */
  retry: event("retry", { attempt: int, delay_ms: count, status: v.optional(int), message: v.string() }),
  /** Ends a prompt, a command or a compaction; the last line of json mode. */
  done: event("done", { stop: v.picklist([...STOP_REASONS, "blocked"]), error: v.optional(v.string()) }),
} as const;

export type HostEventType = keyof typeof HOST_EVENT_SCHEMAS;
export type HostEvent = { [K in HostEventType]: v.InferOutput<(typeof HOST_EVENT_SCHEMAS)[K]> }[HostEventType];
