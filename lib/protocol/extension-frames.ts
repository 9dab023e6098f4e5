// Frames an extension sends to the host. Every schema is a loose object: unknown fields are
// tolerated (the protocol is additive under version 1).
import * as v from "valibot";

import { ExtensionContentSchema } from "./blocks.ts";
import { bool, jsonObject, nonEmpty, str, strings } from "./fields.ts";

export const HelloSchema = v.looseObject({
  type: v.literal("hello"),
  name: nonEmpty("name"),
  version: v.optional(str("version")),
  capabilities: v.optional(strings("capabilities")),
});

export const RegisterCommandSchema = v.looseObject({
  type: v.literal("register_command"),
  name: nonEmpty("name"),
  description: v.optional(str("description")),
});

export const RegisterToolSchema = v.looseObject({
  type: v.literal("register_tool"),
  name: nonEmpty("name"),
  description: v.optional(str("description")),
  schema: v.optional(jsonObject("schema")),
  deferred: v.optional(bool("deferred")),
  interactive: v.optional(bool("interactive")),
});

export const ReadySchema = v.looseObject({ type: v.literal("ready") });

/** Reply to a host `tool_call`. */
export const ToolResultSchema = v.looseObject({
  type: v.literal("tool_result"),
  id: nonEmpty("id"),
  content: v.optional(ExtensionContentSchema),
  is_error: v.optional(bool("is_error")),
  activate_tools: v.optional(strings("activate_tools")),
  truncated: v.optional(bool("truncated")),
});

export const SubscribeSchema = v.looseObject({
  type: v.literal("subscribe"),
  // Unknown event names are tolerated here; the host ignores names it does not know.
  events: v.optional(strings("events")),
  intercept: v.optional(strings("intercept")),
  /** With `intercept_v2`: the reply deadline it asks for its interceptions (the host caps it). */
  intercept_timeout_ms: v.optional(v.pipe(v.number("intercept_timeout_ms must be a number"),
    v.integer("intercept_timeout_ms must be a whole number"), v.minValue(1, "intercept_timeout_ms must be positive"))),
});

export const CallToolSchema = v.looseObject({
  type: v.literal("call_tool"),
  id: nonEmpty("id"),
  name: nonEmpty("name"),
  args: v.optional(jsonObject("args")),
  parent_id: v.optional(str("parent_id")),
});

export const CallToolCancelSchema = v.looseObject({
  type: v.literal("call_tool_cancel"),
  id: nonEmpty("id"),
});

/**
 * `tool_owner` of the intercept_v2 tool payloads (tool_call, tool_result, tool_confirmation): the
 * extension that provides the tool, its kind, and for an MCP server the server's own tool name.
 */
export interface ToolOwner {
  extension: string;
  kind: string;
  name?: string;
}

/** A tool_call interceptor's answer about confirmation (`intercept_v2`): skip it, or insist on it. */
export const INTERCEPT_DECISIONS = ["allow", "ask"] as const;

/**
 * Reply to `event_intercept`. `modified_args`, `system_prompt` and `replace_content` are checked
 * by the host, not here: an invalid value must keep the current value with a warning, not drop
 * the reply. `decision`, `additional_context`, `replace_content` and `continue_with` are read
 * only from an extension that said `intercept_v2` in its hello.
 */
export const EventInterceptResponseSchema = v.looseObject({
  type: v.literal("event_intercept_response"),
  id: nonEmpty("id"),
  block: v.optional(bool("block")),
  reason: v.optional(str("reason")),
  modified_args: v.optional(v.unknown()),
  replace_text: v.optional(str("replace_text")),
  system_prompt: v.optional(v.unknown()),
  decision: v.optional(v.picklist(INTERCEPT_DECISIONS, `decision must be one of ${INTERCEPT_DECISIONS.join(", ")}`)),
  additional_context: v.optional(str("additional_context")),
  replace_content: v.optional(v.unknown()),
  continue_with: v.optional(str("continue_with")),
});

export const COMMAND_ACTIONS = ["prompt", "tool_prompt", "insert", "display", "open_panel", "noop"] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

export const PanelContentSchema = v.looseObject({
  id: nonEmpty("open_panel.id"),
  title: v.optional(str("title")),
  lines: v.optional(strings("lines")),
  footer: v.optional(str("footer")),
});

export const CommandResponseSchema = v.looseObject({
  type: v.literal("command_response"),
  id: nonEmpty("id"),
  action: v.picklist(COMMAND_ACTIONS, `action must be one of ${COMMAND_ACTIONS.join(", ")}`),
  prompt: v.optional(str("prompt")),
  /** intercept_v2 addition: the model that answers this prompt (a Markdown command's `model`). */
  model: v.optional(str("model")),
  tool_name: v.optional(str("tool_name")),
  tool_args: v.optional(jsonObject("tool_args")),
  insert: v.optional(str("insert")),
  display: v.optional(str("display")),
  open_panel: v.optional(PanelContentSchema),
  error: v.optional(str("error")),
});

export const SubmitSchema = v.looseObject({ type: v.literal("submit"), text: str("text") });

export const PanelRenderSchema = v.looseObject({
  type: v.literal("panel_render"),
  panel_id: nonEmpty("panel_id"),
  title: v.optional(str("title")),
  lines: v.optional(strings("lines")),
  footer: v.optional(str("footer")),
});

export const PanelCloseSchema = v.looseObject({ type: v.literal("panel_close"), panel_id: nonEmpty("panel_id") });

export const NOTIFY_LEVELS = ["info", "success", "warn", "error"] as const;
export const NotifySchema = v.looseObject({
  type: v.literal("notify"),
  level: v.optional(v.picklist(NOTIFY_LEVELS, `level must be one of ${NOTIFY_LEVELS.join(", ")}`)),
  message: str("message"),
});

export const ClearNotesSchema = v.looseObject({ type: v.literal("clear_notes") });
export const ShutdownAckSchema = v.looseObject({ type: v.literal("shutdown_ack") });

export const EXTENSION_FRAME_SCHEMAS = {
  hello: HelloSchema,
  register_command: RegisterCommandSchema,
  register_tool: RegisterToolSchema,
  ready: ReadySchema,
  tool_result: ToolResultSchema,
  subscribe: SubscribeSchema,
  call_tool: CallToolSchema,
  call_tool_cancel: CallToolCancelSchema,
  event_intercept_response: EventInterceptResponseSchema,
  command_response: CommandResponseSchema,
  submit: SubmitSchema,
  panel_render: PanelRenderSchema,
  panel_close: PanelCloseSchema,
  notify: NotifySchema,
  clear_notes: ClearNotesSchema,
  shutdown_ack: ShutdownAckSchema,
} as const;

type Schemas = typeof EXTENSION_FRAME_SCHEMAS;
export type ExtensionFrameOf<T extends keyof Schemas> = v.InferOutput<Schemas[T]>;
export type ExtensionFrame = { [T in keyof Schemas]: ExtensionFrameOf<T> }[keyof Schemas];
export type ExtensionFrameType = keyof Schemas;

export type HelloFrame = ExtensionFrameOf<"hello">;
export type RegisterCommandFrame = ExtensionFrameOf<"register_command">;
export type RegisterToolFrame = ExtensionFrameOf<"register_tool">;
export type ToolResultFrame = ExtensionFrameOf<"tool_result">;
export type SubscribeFrame = ExtensionFrameOf<"subscribe">;
export type CallToolFrame = ExtensionFrameOf<"call_tool">;
export type EventInterceptResponseFrame = ExtensionFrameOf<"event_intercept_response">;
export type CommandResponseFrame = ExtensionFrameOf<"command_response">;
export type PanelRenderFrame = ExtensionFrameOf<"panel_render">;
export type NotifyFrame = ExtensionFrameOf<"notify">;
export type NotifyLevel = (typeof NOTIFY_LEVELS)[number];
export type PanelContent = v.InferOutput<typeof PanelContentSchema>;

