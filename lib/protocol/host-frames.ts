// Frames the host sends to an extension. SDKs parse these; loose objects tolerate fields added
// by newer hosts, and `event` tolerates event names this version does not know.
import * as v from "valibot";

import { ContentSchema } from "./blocks.ts";
import { jsonObject, nonEmpty, str } from "./fields.ts";

export const HelloAckSchema = v.looseObject({
  type: v.literal("hello_ack"),
  protocol_version: v.number("protocol_version must be a number"),
  zot_version: v.optional(str("zot_version")),
  provider: v.optional(str("provider")),
  model: v.optional(str("model")),
  cwd: v.optional(str("cwd")),
  extension_dir: v.optional(str("extension_dir")),
  data_dir: v.optional(str("data_dir")),
  capabilities: v.optional(v.array(str("capabilities"), "capabilities must be an array of strings")),
});

export const CommandInvokedSchema = v.looseObject({
  type: v.literal("command_invoked"),
  id: nonEmpty("id"),
  name: nonEmpty("name"),
  args: v.optional(str("args"), ""),
});

export const ToolCallSchema = v.looseObject({
  type: v.literal("tool_call"),
  id: nonEmpty("id"),
  name: nonEmpty("name"),
  args: v.optional(jsonObject("args"), {}),
});

export const ToolCancelSchema = v.looseObject({ type: v.literal("tool_cancel"), id: nonEmpty("id") });

/** The host's reply to an extension's `call_tool`. */
export const CallToolResultSchema = v.looseObject({
  type: v.literal("tool_result"),
  id: nonEmpty("id"),
  name: v.optional(str("name")),
  content: v.optional(ContentSchema, []),
  is_error: v.optional(v.boolean("is_error must be true or false"), false),
  truncated: v.optional(v.boolean("truncated must be true or false")),
});

export const EventSchema = v.looseObject({
  type: v.literal("event"),
  event: nonEmpty("event"),
  session_id: v.optional(str("session_id")),
  cwd: v.optional(str("cwd")),
  sequence: v.optional(v.number("sequence must be a number")),
});

export const EventInterceptSchema = v.looseObject({
  type: v.literal("event_intercept"),
  id: nonEmpty("id"),
  event: nonEmpty("event"),
});

export const PanelKeySchema = v.looseObject({
  type: v.literal("panel_key"),
  panel_id: nonEmpty("panel_id"),
  // Unknown key names from newer hosts are tolerated; SDKs pass them through.
  key: nonEmpty("key"),
  text: v.optional(str("text")),
});

export const HostPanelCloseSchema = v.looseObject({ type: v.literal("panel_close"), panel_id: nonEmpty("panel_id") });
export const ShutdownSchema = v.looseObject({ type: v.literal("shutdown") });

export const HOST_FRAME_SCHEMAS = {
  hello_ack: HelloAckSchema,
  command_invoked: CommandInvokedSchema,
  tool_call: ToolCallSchema,
  tool_cancel: ToolCancelSchema,
  tool_result: CallToolResultSchema,
  event: EventSchema,
  event_intercept: EventInterceptSchema,
  panel_key: PanelKeySchema,
  panel_close: HostPanelCloseSchema,
  shutdown: ShutdownSchema,
} as const;

type Schemas = typeof HOST_FRAME_SCHEMAS;
export type HostFrameOf<T extends keyof Schemas> = v.InferOutput<Schemas[T]>;
export type HostFrame = { [T in keyof Schemas]: HostFrameOf<T> }[keyof Schemas];
export type HostFrameType = keyof Schemas;

export type HelloAckFrame = HostFrameOf<"hello_ack">;
export type CommandInvokedFrame = HostFrameOf<"command_invoked">;
export type ToolCallFrame = HostFrameOf<"tool_call">;
export type CallToolResultFrame = HostFrameOf<"tool_result">;
export type EventFrame = HostFrameOf<"event">;
export type EventInterceptFrame = HostFrameOf<"event_intercept">;
export type PanelKeyFrame = HostFrameOf<"panel_key">;

