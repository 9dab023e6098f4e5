// OpenAI's Responses API over SSE, for OpenAI's reasoning and codex models. Output arrives as
// items (reasoning, message, function_call) whose pieces are deltas keyed by item id; a
// reasoning item's encrypted form comes whole in `response.output_item.done`.
import { APIError, type OpenAI } from "openai";
import type { AssistantDraft } from "./draft.ts";
import { IncompleteStreamError } from "./errors.ts";
import { encodeReasoning } from "./openai-responses-request.ts";
import type { ModelStreamEvent, TextBlock, ThinkingBlock, ToolCallBlock } from "./types.ts";

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

/** A mid-stream failure, as the SDK reports body errors, so `describeFailure` classifies it (server errors are retried). */
function streamFailure(message: string, type: string | undefined): APIError {
  return new APIError(undefined, { type, message }, message, undefined);
}

export async function* translateResponses(events: AsyncIterable<StreamEvent>, draft: AssistantDraft): AsyncGenerator<ModelStreamEvent> {
  const texts = new Map<string, TextBlock>();
  const thoughts = new Map<string, ThinkingBlock>();
  const calls = new Map<string, ToolCallBlock>();
  const summaryIndex = new Map<ThinkingBlock, number>();
  let finished = false;

  for await (const event of events) {
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        if (item.type === "reasoning") thoughts.set(item.id, draft.startThinking());
        else if (item.type === "function_call") {
          const call = draft.startToolCall(item.call_id, item.name);
          calls.set(item.id ?? item.call_id, call);
          yield { type: "tool_call_delta", id: call.id, name: call.name };
        }
        break;
      }
      case "response.reasoning_summary_text.delta": {
        const block = thoughts.get(event.item_id) ?? startThought(thoughts, event.item_id, draft);
        // Summary parts are separate paragraphs.
        const separator = block.thinking && summaryIndex.get(block) !== event.summary_index ? "\n\n" : "";
        summaryIndex.set(block, event.summary_index);
        block.thinking += separator + event.delta;
        yield { type: "thinking_delta", delta: separator + event.delta };
        break;
      }
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const id = event.item_id;
        let block = texts.get(id);
        if (!block) texts.set(id, (block = draft.startText()));
        block.text += event.delta;
        yield { type: "text_delta", delta: event.delta };
        break;
      }
      case "response.function_call_arguments.delta": {
        const call = calls.get(event.item_id);
        if (!call) break;
        draft.appendArgs(call, event.delta);
        yield { type: "tool_call_delta", id: call.id, name: call.name, delta: event.delta };
        break;
      }
      case "response.output_item.done": {
        const item = event.item;
        if (item.type === "reasoning") {
          const block = thoughts.get(item.id) ?? startThought(thoughts, item.id, draft);
          const summary = item.summary.map((part) => part.text);
          if (!block.thinking && summary.length > 0) block.thinking = summary.join("\n\n");
          if (item.encrypted_content) {
            block.signature = encodeReasoning({ id: item.id, encrypted_content: item.encrypted_content, summary });
            if (!block.thinking) block.redacted = true;
          }
        } else if (item.type === "function_call") {
          const call = calls.get(item.id ?? item.call_id);
          // Arguments sent whole without deltas.
          if (call && !draft.argsOf(call) && item.arguments) draft.appendArgs(call, item.arguments);
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        readUsage(event.response.usage, draft);
        finished = true;
        if (event.type === "response.incomplete") {
          const reason = event.response.incomplete_details?.reason;
          if (reason === "content_filter") {
            draft.stop = "error";
            draft.stopError = "the response was blocked by the provider's content filter";
          } else draft.stop = "length";
        } else draft.stop = draft.hasToolCalls() ? "tool_use" : "end_turn";
        break;
      }
      case "response.failed": {
        const error = event.response.error;
        throw streamFailure(error?.message ?? "the response failed", error?.code === "rate_limit_exceeded" ? "rate_limit_error" : error?.code);
      }
      case "error":
        throw streamFailure(event.message, event.code ?? "server_error");
      default:
        break;
    }
  }
  // The SDK ends iteration quietly on abort and when the server closes early.
  if (!finished) throw new IncompleteStreamError();
}

function startThought(thoughts: Map<string, ThinkingBlock>, id: string, draft: AssistantDraft): ThinkingBlock {
  const block = draft.startThinking();
  thoughts.set(id, block);
  return block;
}

/** input_tokens includes cached tokens; ours counts them apart. Output includes reasoning tokens. */
function readUsage(usage: OpenAI.Responses.ResponseUsage | null | undefined, draft: AssistantDraft): void {
  if (!usage) return;
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  draft.tokens.input = Math.max(0, usage.input_tokens - cached);
  draft.tokens.cache_read = cached;
  draft.tokens.output = usage.output_tokens;
}
