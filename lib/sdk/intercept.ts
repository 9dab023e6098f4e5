// Answers `event_intercept` requests with the registered interceptors. Every request gets a
// reply; anything that goes wrong (no interceptor, a throw, an invalid decision) answers "allow,
// unchanged", which is also what the host assumes when no reply comes in time.
import { isJsonObject, SYSTEM_PROMPT_MAX_BYTES, type InterceptableEventName } from "../protocol/index.ts";
import { describeError } from "./errors.ts";
import type { Interceptors, JsonObject } from "./types.ts";
import type { OutboundFrame } from "./writer.ts";

type Request = { id: string; event: string } & JsonObject;

/** The events named in `subscribe.intercept`, in the protocol's order. */
export function interceptedEvents(interceptors: Interceptors): InterceptableEventName[] {
  const names: InterceptableEventName[] = [];
  if (interceptors.beforeAgentStart) names.push("before_agent_start");
  if (interceptors.toolCall || interceptors.toolCallX) names.push("tool_call");
  if (interceptors.turnStart) names.push("turn_start");
  if (interceptors.assistantMessage) names.push("assistant_message");
  if (interceptors.toolResult) names.push("tool_result");
  if (interceptors.userPrompt) names.push("user_prompt_submit");
  if (interceptors.agentEnd) names.push("before_agent_end");
  if (interceptors.toolConfirmation) names.push("tool_confirmation");
  return names;
}

/** Decides one request. Never throws; `log` hears about interceptor failures. */
export async function decideIntercept(
  request: Request,
  interceptors: Interceptors,
  log: (message: string) => void,
): Promise<OutboundFrame> {
  const reply: OutboundFrame = { type: "event_intercept_response", id: request.id };
  try {
    Object.assign(reply, await decide(request, interceptors, log));
  } catch (err) {
    log(`${request.event} interceptor failed, allowing unchanged: ${err instanceof Error && err.stack ? err.stack : describeError(err)}`);
  }
  return reply;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

async function decide(request: Request, i: Interceptors, log: (message: string) => void): Promise<JsonObject> {
  switch (request.event) {
    case "before_agent_start": {
      const systemPrompt = str(request.system_prompt);
      if (!i.beforeAgentStart || systemPrompt === undefined) return {};
      const replacement = await i.beforeAgentStart({
        systemPrompt,
        sessionId: str(request.session_id),
        agentRunId: str(request.agent_run_id),
        cwd: str(request.cwd),
        provider: str(request.provider),
        model: str(request.model),
      });
      if (replacement === undefined) return {};
      if (typeof replacement !== "string") {
        log(`before_agent_start interceptor returned ${typeof replacement}, not a string; prompt kept`);
        return {};
      }
      const bytes = Buffer.byteLength(JSON.stringify(replacement), "utf8");
      if (bytes > SYSTEM_PROMPT_MAX_BYTES) {
        log(`before_agent_start replacement is ${bytes} bytes encoded, over the ${SYSTEM_PROMPT_MAX_BYTES} limit; prompt kept`);
        return {};
      }
      return { system_prompt: replacement };
    }
    case "tool_call": {
      const tool = str(request.tool_name) ?? "";
      const args = isJsonObject(request.tool_args) ? request.tool_args : {};
      if (i.toolCallX) {
        const d = (await i.toolCallX(tool, args)) ?? {};
        const out = blockFields(d.block, d.reason);
        if (!d.block && d.modifiedArgs !== undefined) {
          if (isJsonObject(d.modifiedArgs)) out.modified_args = d.modifiedArgs;
          else log(`tool_call interceptor returned modifiedArgs that is not a JSON object; args kept`);
        }
        if (!d.block && (d.decision === "allow" || d.decision === "ask")) out.decision = d.decision;
        if (!d.block && nonEmpty(d.additionalContext)) out.additional_context = d.additionalContext;
        return out;
      }
      if (!i.toolCall) return {};
      const verdict = await i.toolCall(tool, args);
      return verdict ? blockFields(!verdict.allow, verdict.reason) : {};
    }
    case "turn_start": {
      if (!i.turnStart) return {};
      const step = typeof request.step === "number" ? request.step : 0;
      const d = (await i.turnStart(step)) ?? {};
      return blockFields(d.block, d.reason);
    }
    case "assistant_message": {
      if (!i.assistantMessage) return {};
      const d = (await i.assistantMessage(str(request.text) ?? "")) ?? {};
      const out = blockFields(d.block, d.reason);
      if (!d.block && typeof d.replaceText === "string" && d.replaceText !== "") out.replace_text = d.replaceText;
      return out;
    }
    case "tool_result": {
      if (!i.toolResult) return {};
      const result = isJsonObject(request.result) ? request.result : {};
      const d = (await i.toolResult({
        toolId: str(request.tool_id) ?? "", toolName: str(request.tool_name) ?? "",
        args: isJsonObject(request.tool_args) ? request.tool_args : {}, status: str(request.status) ?? "",
        isError: result.is_error === true, content: Array.isArray(result.content) ? result.content.filter(isJsonObject) : [],
      })) ?? {};
      const out: JsonObject = {};
      if (Array.isArray(d.replaceContent)) out.replace_content = d.replaceContent;
      if (nonEmpty(d.additionalContext)) out.additional_context = d.additionalContext;
      return out;
    }
    case "user_prompt_submit": {
      if (!i.userPrompt) return {};
      const d = (await i.userPrompt({ text: str(request.text) ?? "", imageCount: typeof request.image_count === "number" ? request.image_count : 0 })) ?? {};
      const out = blockFields(d.block, d.reason);
      if (!d.block && nonEmpty(d.additionalContext)) out.additional_context = d.additionalContext;
      return out;
    }
    case "before_agent_end": {
      if (!i.agentEnd) return {};
      const d = (await i.agentEnd({ text: str(request.text) ?? "", continuations: typeof request.continuations === "number" ? request.continuations : 0 })) ?? {};
      return nonEmpty(d.continueWith) ? { continue_with: d.continueWith } : {};
    }
    case "tool_confirmation": {
      if (!i.toolConfirmation) return {};
      const d = (await i.toolConfirmation({
        toolId: str(request.tool_id) ?? "", toolName: str(request.tool_name) ?? "",
        args: isJsonObject(request.tool_args) ? request.tool_args : {}, preview: str(request.tool_preview) ?? "",
      })) ?? {};
      if (d.block) return blockFields(true, d.reason);
      return d.allow ? { decision: "allow", ...(nonEmpty(d.reason) ? { reason: d.reason } : {}) } : {};
    }
    default:
      return {};
  }
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

function blockFields(block: boolean | undefined, reason: unknown): JsonObject {
  const out: JsonObject = {};
  if (block) out.block = true;
  if (typeof reason === "string" && reason !== "") out.reason = reason;
  return out;
}
