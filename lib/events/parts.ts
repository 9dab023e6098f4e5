// Field shapes several events share: counts, times, tool arguments, the lifecycle stamp,
// content blocks, usage totals, and the stop and status vocabularies. Objects are plain
// `v.object`s so the inferred types have no index signature; the json/rpc stream schema makes
// them loose for its clients (lib/modes/stream-schema).
import * as v from "valibot";

export const int = v.pipe(v.number(), v.integer());
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** RFC 3339, as zot writes it (UTC with milliseconds). */
export const time = v.pipe(v.string(), v.isoTimestamp());
export const args = v.record(v.string(), v.unknown());

/** The fields every lifecycle event carries (extensions.md, "Lifecycle payloads"). */
export const stamp = { session_id: v.string(), cwd: v.string(), sequence: count };

export const TextBlockSchema = v.object({ type: v.literal("text"), text: v.string() });
/** An image with its base64 bytes (tool results in events, prompts with include_images). */
export const ImageDataBlockSchema = v.object({ type: v.literal("image"), mime_type: v.string(), data: v.string() });
export const ToolCallBlockSchema = v.object({ type: v.literal("tool_call"), id: v.string(), name: v.string(), args });

/** A tool result's content as events carry it. */
export const ToolContentSchema = v.union([TextBlockSchema, ImageDataBlockSchema]);

/** The Go zot's block shapes: an image is its byte count. */
export const StreamBlockSchema = v.union([
  TextBlockSchema,
  v.object({ type: v.literal("image"), mime_type: v.string(), bytes: count }),
  ToolCallBlockSchema,
]);

export const usageFields = { input: count, output: count, cache_read: count, cache_write: count, cost_usd: v.number() };
export const UsageSchema = v.object(usageFields);

export const STOP_REASONS = ["end_turn", "tool_use", "length", "error", "aborted"] as const;
export const RUN_STATUSES = ["completed", "failed", "cancelled", "timed_out"] as const;
/** A tool outcome: a run status, or refused before it ran. */
export const TOOL_STATUSES = [...RUN_STATUSES, "blocked"] as const;

export type StreamBlock = v.InferOutput<typeof StreamBlockSchema>;
export type RunStatus = (typeof RUN_STATUSES)[number];
