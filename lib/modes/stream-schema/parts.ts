// Shapes shared by several json/rpc lines: content blocks, usage, lifecycle stamps.
import * as v from "valibot";

export const int = v.pipe(v.number(), v.integer());
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** RFC 3339, as zot writes it (UTC with milliseconds). */
export const time = v.pipe(v.string(), v.isoTimestamp());
export const args = v.record(v.string(), v.unknown());

/** The fields every lifecycle event carries (extensions.md, "Lifecycle payloads"). */
export const stamp = { session_id: v.string(), cwd: v.string(), sequence: count };

export const StreamTextBlockSchema = v.looseObject({ type: v.literal("text"), text: v.string() });
/** An image with its base64 bytes (tool results in events, prompts with include_images). */
export const ImageDataBlockSchema = v.looseObject({ type: v.literal("image"), mime_type: v.string(), data: v.string() });
export const ToolCallBlockSchema = v.looseObject({ type: v.literal("tool_call"), id: v.string(), name: v.string(), args });

/** A tool result's content as events carry it. */
export const ToolContentSchema = v.union([StreamTextBlockSchema, ImageDataBlockSchema]);

/** The Go zot's block shapes: an image is its byte count. */
export const StreamBlockSchema = v.union([
  StreamTextBlockSchema,
  v.looseObject({ type: v.literal("image"), mime_type: v.string(), bytes: count }),
  ToolCallBlockSchema,
]);

export const usageFields = { input: count, output: count, cache_read: count, cache_write: count, cost_usd: v.number() };
export const UsageSchema = v.looseObject(usageFields);

export const STOP_REASONS = ["end_turn", "tool_use", "length", "error", "aborted"] as const;
export const RUN_STATUSES = ["completed", "failed", "cancelled", "timed_out"] as const;
