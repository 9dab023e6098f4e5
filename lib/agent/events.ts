// The one event stream. The agent loop emits these typed observations; the same objects feed
// the extension host's `event` frames, json/rpc NDJSON, the REPL renderer and the session
// writer. No consumer invents its own shapes: a consumer filters and formats.
import type { ToolContent, ToolStatus } from "../tools/types.ts";
import type { StopReason } from "../providers/types.ts";
import { isLifecycleEventName, type LifecycleEventName } from "../protocol/event-names.ts";

/** Fields every lifecycle notification carries, stamped by the EventBus. */
export interface Stamp {
  session_id: string;
  cwd: string;
  sequence: number;
}

export type PermissionDecision = "approved" | "denied" | "cancelled";
export type PermissionSource = "user" | "remembered" | "policy" | "yolo";
export type PermissionStage = "pre_execution" | "tool_execution";
export type RunStatus = "completed" | "failed" | "cancelled" | "timed_out";

/** The 14 lifecycle events of the extension protocol, payloads exactly as the spec lists them (the EventBus adds the Stamp). */
export type LifecyclePayload =
  | { type: "session_start" }
  | { type: "session_end"; reason: "shutdown" | "session_switch" | "cwd_change" }
  | { type: "user_prompt_submit"; text?: string; queued?: boolean; image_count?: number }
  | { type: "turn_start"; step: number }
  | { type: "turn_end"; stop: StopReason; error?: string }
  | {
      type: "tool_call";
      tool_id: string;
      tool_name: string;
      /** Absent when the model's arguments were not a JSON object: then `tool_args_raw` carries them. */
      tool_args?: Record<string, unknown>;
      tool_args_raw?: string;
      /** Set when the call came from an extension (`call_tool`, or a `tool_prompt` action). */
      origin_extension?: string;
    }
  | { type: "tool_confirmation_requested"; tool_id: string; tool_name: string; tool_preview: string; origin_extension?: string }
  | {
      type: "permission_decision";
      tool_id: string;
      tool_name: string;
      decision: PermissionDecision;
      source: PermissionSource;
      stage: PermissionStage;
      reason?: string;
      /** The extensions whose tool_call interception rewrote the arguments that were decided on. */
      rewritten_by?: string[];
      origin_extension?: string;
    }
  | {
      type: "tool_result";
      tool_id: string;
      tool_name: string;
      tool_args?: Record<string, unknown>;
      tool_args_raw?: string;
      status: ToolStatus;
      executed: boolean;
      /** `diff`: the unified diff of a file change (edit, write), within the observation budget. */
      result: { content: ToolContent[]; is_error: boolean; diff?: string; truncated?: boolean };
      /** Set when the call came from an extension (`call_tool`, or a `tool_prompt` action). */
      origin_extension?: string;
    }
  | {
      type: "assistant_message";
      /** The visible text ("" for a response that was only tool calls, or whose text was suppressed). */
      text: string;
      /** json/rpc only (extension frames leave it out): the visible text and the calls, as blocks. */
      content?: StreamBlock[];
      /** json/rpc only: when the response ended, RFC 3339. */
      time?: string;
    }
  | { type: "pre_compact"; compaction_id: string; message_count: number; token_estimate: number }
  | {
      type: "post_compact";
      compaction_id: string;
      message_count: number;
      token_estimate: number;
      status: RunStatus;
      error?: string;
    }
  | { type: "subagent_start"; agent_id: string; agent_run_id: string; name: string }
  | { type: "subagent_stop"; agent_id: string; agent_run_id: string; name: string; status: RunStatus; error?: string };

/** Fails to compile unless the payloads above cover exactly the protocol's lifecycle event names. */
type PayloadsMatchNames = [LifecyclePayload["type"], LifecycleEventName] extends [LifecycleEventName, LifecyclePayload["type"]]
  ? true : never;
const payloadsMatchNames: PayloadsMatchNames = true;

/**
 * A content block as json/rpc clients see it (the Go zot's message shape): images carry their
 * size in `bytes` instead of base64.
 */
export type StreamBlock =
  | { type: "text"; text: string }
  | { type: "image"; mime_type: string; bytes: number }
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown> };

type UsageTotals = { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number };

/** Host observations beyond the lifecycle events (host.md, "One event vocabulary"). */
export type HostEvent =
  | { type: "session"; session_id: string; cwd: string; provider: string; model: string; zot_version: string; protocol_version: number }
  | { type: "text_delta"; delta: string }
  | { type: "thinking_delta"; delta: string }
  | { type: "tool_progress"; tool_id: string; text: string }
  | {
      type: "usage";
      input: number;
      output: number;
      cache_read: number;
      cache_write: number;
      cost_usd: number;
      /** The conversation's total, its subagents' included; `children` is their part, once one has returned. */
      cumulative: UsageTotals & { children?: UsageTotals };
    }
  | { type: "ext_notify"; extension: string; level: "info" | "success" | "warn" | "error"; message: string }
  | { type: "ext_display"; extension: string; text: string }
  | { type: "ext_clear_notes"; extension: string }
  | { type: "ext_error"; extension: string; message: string; log_path?: string }
  | { type: "ext_panel_open"; extension: string; panel_id: string; title?: string; lines?: string[]; footer?: string }
  | { type: "ext_panel_render"; extension: string; panel_id: string; title?: string; lines?: string[]; footer?: string }
  | { type: "ext_panel_close"; extension: string; panel_id: string }
  /** The prompt as it was appended to the transcript (when its run starts). */
  | { type: "user_message"; content: StreamBlock[]; time: string }
  /** A model response is about to stream. */
  | { type: "assistant_start" }
  /** A tool call's arguments stream in: start, argument text fragments, end. */
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_use_args"; id: string; delta: string }
  | { type: "tool_use_end"; id: string }
  /** Ends every compaction attempt, after post_compact; the summary is empty when nothing was summarised. */
  | { type: "compact_done"; summary: string }
  | { type: "error"; message: string }
  /** A model request failed and is tried again after `delay_ms` (attempt 1 is the first retry). */
  | { type: "retry"; attempt: number; delay_ms: number; status?: number; message: string }
  | { type: "done"; stop: StopReason | "blocked"; error?: string };

export type StampedLifecycleEvent = LifecyclePayload & Stamp;
export type ZotEvent = StampedLifecycleEvent | HostEvent;

export function isLifecycleEvent(event: ZotEvent): event is StampedLifecycleEvent {
  return isLifecycleEventName(event.type);
}
