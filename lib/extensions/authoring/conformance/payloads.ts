// What the checker sends: tool arguments built from a tool's JSON Schema, and one representative
// payload per lifecycle event and per interceptable event (the shapes of the protocol spec).
import { isJsonObject, type InterceptableEventName, type LifecycleEventName } from "../../../protocol/index.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A simple value a schema accepts: its const, default or first enum value, else one per type. */
export function placeholderFor(schema: unknown, depth = 0): Json {
  if (!isJsonObject(schema)) return "test";
  if ("const" in schema) return schema.const as Json;
  if ("default" in schema) return schema.default as Json;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as Json;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return placeholderFor(alternatives[0], depth);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== "null") ?? types[0];
  switch (type) {
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "null":
      return null;
    case "object":
      // Nested objects get their own required properties, a few levels deep at most.
      return depth < 4 ? requiredArgs(schema, depth + 1) : {};
    default:
      return "test";
  }
}

/** `{}` plus a placeholder for every property the schema lists as required. */
export function requiredArgs(schema: unknown, depth = 0): Record<string, Json> {
  const args: Record<string, Json> = {};
  if (!isJsonObject(schema) || !Array.isArray(schema.required)) return args;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  for (const name of schema.required) {
    if (typeof name === "string") args[name] = placeholderFor(properties[name], depth);
  }
  return args;
}

export interface SessionInfo {
  sessionId: string;
  cwd: string;
  provider: string;
  model: string;
}

/** The `event_intercept` fields (besides type and id) of a representative request per event. */
export function interceptPayload(event: InterceptableEventName, info: SessionInfo): Record<string, unknown> {
  switch (event) {
    case "tool_call":
      return { event, session_id: info.sessionId, cwd: info.cwd, tool_id: "conformance-tool-1", tool_name: "bash",
        tool_args: { command: "echo hi" } };
    case "turn_start":
      return { event, session_id: info.sessionId, cwd: info.cwd, step: 1 };
    case "assistant_message":
      return { event, session_id: info.sessionId, cwd: info.cwd, text: "hello" };
    case "before_agent_start":
      return { event, session_id: info.sessionId, agent_run_id: "conformance-run-1", cwd: info.cwd,
        provider: info.provider, model: info.model, system_prompt: "You are a helpful coding agent." };
    case "tool_result":
      return { event, session_id: info.sessionId, cwd: info.cwd, tool_id: "conformance-tool-1", tool_name: "bash",
        tool_args: { command: "echo hi" }, status: "completed", result: { content: [{ type: "text", text: "hi\n" }], is_error: false } };
    case "user_prompt_submit":
      return { event, session_id: info.sessionId, cwd: info.cwd, text: "hello" };
    case "before_agent_end":
      return { event, session_id: info.sessionId, cwd: info.cwd, text: "done", continuations: 0 };
    case "tool_confirmation":
      return { event, session_id: info.sessionId, cwd: info.cwd, tool_id: "conformance-tool-1", tool_name: "bash",
        tool_args: { command: "echo hi" }, tool_preview: "echo hi" };
  }
}

/** The event-specific fields of a representative `event` notification per lifecycle event. */
export function eventPayload(event: LifecycleEventName): Record<string, unknown> {
  const tool = { tool_id: "conformance-tool-1", tool_name: "bash" };
  switch (event) {
    case "session_start":
      return {};
    case "session_end":
      return { reason: "shutdown" };
    case "user_prompt_submit":
      return { text: "hello" };
    case "turn_start":
      return { step: 1 };
    case "turn_end":
      return { stop: "end_turn" };
    case "tool_call":
      return { ...tool, tool_args: { command: "echo hi" } };
    case "tool_confirmation_requested":
      return { ...tool, tool_preview: "echo hi" };
    case "permission_decision":
      return { ...tool, decision: "approved", source: "user", stage: "pre_execution" };
    case "tool_result":
      return { ...tool, tool_args: { command: "echo hi" }, status: "completed", executed: true,
        result: { content: [{ type: "text", text: "hi\n" }], is_error: false } };
    case "assistant_message":
      return { text: "hello" };
    case "pre_compact":
      return { compaction_id: "conformance-compaction-1", message_count: 4, token_estimate: 1200 };
    case "post_compact":
      return { compaction_id: "conformance-compaction-1", message_count: 2, token_estimate: 300, status: "completed" };
    case "subagent_start":
      return { agent_id: "conformance-agent", agent_run_id: "conformance-agent-run-1", name: "conformance-agent" };
    case "subagent_stop":
      return { agent_id: "conformance-agent", agent_run_id: "conformance-agent-run-1", name: "conformance-agent",
        status: "completed" };
  }
}
