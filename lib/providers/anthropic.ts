// Anthropic Messages API over SSE. Each wire event updates the draft and yields our deltas;
// retries, aborts and the final message are the retry driver's business.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import { Messages, type RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { isJsonObject } from "../protocol/json-object.ts";
import { toAnthropicParams } from "./anthropic-request.ts";
import { ANTHROPIC_BASE_URL } from "./base-urls.ts";
import type { AssistantDraft } from "./draft.ts";
import { describeFailure, IncompleteStreamError } from "./errors.ts";
import { streamWithRetry, type RetryOptions } from "./retry.ts";
import { routingConsoleWarn, sdkLogger, stderrWarn, type SdkWarn } from "./sdk-log.ts";
import { touching } from "./stall.ts";
import type { AssistantContent, ModelStreamEvent, Provider, StopReason, StreamRequest, ToolCallBlock } from "./types.ts";

export interface AnthropicProviderOptions {
  /** Sent as the bearer credential; omit for a keyless local server. */
  apiKey?: string;
  baseUrl?: string;
  retry?: RetryOptions;
  /** The SDK's log lines and warnings, one line each (default: stderr). */
  warn?: SdkWarn;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIUserAbortError };

/**
 * The Messages API alone: the full client builds every API resource (beta, organization, files,
 * skills, …) on construction, which a one-shot run pays for in start-up time and memory.
 */
class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
}

/** Never looks for credentials on its own: no key means no Authorization header at all. */
class KeylessAnthropic extends MessagesClient {
  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}

/**
 * The SDK starts an OpenTelemetry span around each request (a millisecond of a one-shot run).
 * A span records only in a process that registered a tracer provider through
 * @opentelemetry/api (an application embedding zot may; the CLI never does): without one, the
 * SDK's tracing is turned off rather than run for nothing.
 */
function openTelemetryOption(): false | undefined {
  const registered = Object.getOwnPropertySymbols(globalThis).some((key) => key.description?.startsWith("opentelemetry.js.api."));
  return registered ? undefined : false;
}

export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  const warn = options.warn ?? stderrWarn;
  const common = {
    baseURL: options.baseUrl ?? ANTHROPIC_BASE_URL,
    maxRetries: 0,
    logger: sdkLogger(warn),
    openTelemetry: openTelemetryOption(),
  };
  const client = options.apiKey
    ? new MessagesClient({ ...common, apiKey: options.apiKey })
    : new KeylessAnthropic({ ...common, apiKey: null, authToken: null, defaultHeaders: { Authorization: null } });

  return {
    name: "anthropic",
    stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      return streamWithRetry({
        provider: "anthropic",
        model: request.model,
        signal: request.signal,
        retry: options.retry,
        describe: (err) => describeFailure(err, SDK_ERRORS),
        async *attempt(signal, draft, alive) {
          // Built per attempt: building can throw on bad input, which then ends as a stop `error`.
          const params = toAnthropicParams(request);
          const events = await routingConsoleWarn(warn, () => client.messages.create(params, { signal }));
          // The SDK swallows `ping` events, so only real events count as signs of life.
          yield* translate(touching(events, alive), draft);
        },
      });
    },
  };
}

/** Wire stop reasons → ours. A refusal completes the response but reports it as an error. */
function mapStop(reason: string | null, draft: AssistantDraft): StopReason {
  switch (reason) {
    case "tool_use": return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded": return "length";
    case "refusal":
      draft.stopError = "the model declined to respond (refusal)";
      return "error";
    default: return draft.hasToolCalls() ? "tool_use" : "end_turn";
  }
}

async function* translate(events: AsyncIterable<RawMessageStreamEvent>, draft: AssistantDraft): AsyncGenerator<ModelStreamEvent> {
  const blocks = new Map<number, AssistantContent>();
  let stopReason: string | null = null;
  let sawStop = false;
  for await (const event of events) {
    switch (event.type) {
      case "message_start": {
        const usage = event.message.usage;
        draft.tokens.input = usage.input_tokens ?? 0;
        draft.tokens.output = usage.output_tokens ?? 0;
        draft.tokens.cache_read = usage.cache_read_input_tokens ?? 0;
        draft.tokens.cache_write = usage.cache_creation_input_tokens ?? 0;
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") {
          blocks.set(event.index, draft.startText(block.text));
          if (block.text) yield { type: "text_delta", delta: block.text };
        } else if (block.type === "thinking") {
          blocks.set(event.index, draft.startThinking(block.thinking, block.signature || undefined));
          if (block.thinking) yield { type: "thinking_delta", delta: block.thinking };
        } else if (block.type === "redacted_thinking") {
          const thinking = draft.startThinking("", block.data);
          thinking.redacted = true;
          blocks.set(event.index, thinking);
        } else if (block.type === "tool_use") {
          const call = draft.startToolCall(block.id, block.name);
          if (isNonEmptyObject(block.input)) call.args = block.input;
          blocks.set(event.index, call);
          yield { type: "tool_call_delta", id: call.id, name: call.name };
        }
        // Server-side tool blocks are not ours to run; they are left out of the message.
        break;
      }
      case "content_block_delta": {
        const target = blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === "text_delta" && target?.type === "text") {
          target.text += delta.text;
          yield { type: "text_delta", delta: delta.text };
        } else if (delta.type === "thinking_delta" && target?.type === "thinking") {
          target.thinking += delta.thinking;
          yield { type: "thinking_delta", delta: delta.thinking };
        } else if (delta.type === "signature_delta" && target?.type === "thinking") {
          target.signature = (target.signature ?? "") + delta.signature;
        } else if (delta.type === "input_json_delta" && target?.type === "tool_call") {
          draft.appendArgs(target, delta.partial_json);
          yield toolDelta(target, delta.partial_json);
        }
        break;
      }
      case "message_delta": {
        stopReason = event.delta.stop_reason ?? stopReason;
        // Counts here are cumulative; a null leaves the message_start value standing.
        const usage = event.usage;
        if (usage.output_tokens != null) draft.tokens.output = usage.output_tokens;
        if (usage.input_tokens != null) draft.tokens.input = usage.input_tokens;
        if (usage.cache_read_input_tokens != null) draft.tokens.cache_read = usage.cache_read_input_tokens;
        if (usage.cache_creation_input_tokens != null) draft.tokens.cache_write = usage.cache_creation_input_tokens;
        break;
      }
      case "message_stop":
        sawStop = true;
        break;
    }
  }
  // The SDK ends iteration quietly on abort and on a socket closed between events.
  if (!sawStop) throw new IncompleteStreamError();
  draft.stop = mapStop(stopReason, draft);
}

function toolDelta(call: ToolCallBlock, delta: string): ModelStreamEvent {
  return { type: "tool_call_delta", id: call.id, name: call.name, delta };
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && Object.keys(value).length > 0;
}
