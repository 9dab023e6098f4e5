// OpenAI Chat Completions over SSE, for OpenAI itself and compatible servers (ollama,
// llama.cpp, vLLM, LM Studio) via `baseUrl`. Reasoning arrives as `reasoning_content` or
// `reasoning` deltas depending on the server; tool-call arguments arrive in pieces by index.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { OPENAI_BASE_URL } from "./base-urls.ts";
import type { AssistantDraft } from "./draft.ts";
import { describeFailure, IncompleteStreamError } from "./errors.ts";
import { usesResponses, type OpenAIApi } from "./openai-api.ts";
import { translateResponses } from "./openai-responses.ts";
import { toResponsesParams } from "./openai-responses-request.ts";
import { toOpenAIParams, type OpenAIParams, type OpenAIParamsOptions } from "./openai-request.ts";
import { streamWithRetry, type RetryOptions } from "./retry.ts";
import { routingConsoleWarn, sdkLogger, stderrWarn, type SdkWarn } from "./sdk-log.ts";
import { touching } from "./stall.ts";
import type {
  AssistantContent, ModelStreamEvent, Provider, StopReason, StreamRequest, TextBlock, ThinkingBlock, ToolCallBlock,
} from "./types.ts";

export interface OpenAIProviderOptions {
  /** Sent as the bearer credential; omit for a keyless local server. */
  apiKey?: string;
  /** Includes the version path, as OpenAI-compatible servers expect (`http://localhost:11434/v1`). */
  baseUrl?: string;
  retry?: RetryOptions;
  /** The SDK's log lines and warnings, one line each (default: stderr). */
  warn?: SdkWarn;
  /** The provider name messages carry (default `openai`; a cloud preset gives its own). */
  name?: string;
  /** Builds each request's parameters instead of `toOpenAIParams` (a cloud's own fields); once per request. */
  toParams?: (request: StreamRequest, options: OpenAIParamsOptions) => OpenAIParams;
  /** Chat Completions, the Responses API, or per model (default `auto`). */
  api?: OpenAIApi;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIUserAbortError };


export function createOpenAIProvider(options: OpenAIProviderOptions = {}): Provider {
  const baseURL = options.baseUrl ?? OPENAI_BASE_URL;
  const warn = options.warn ?? stderrWarn;
  const client = new OpenAI({
    baseURL,
    maxRetries: 0,
    logger: sdkLogger(warn),
    // The SDK insists on a key; for a keyless server send none rather than a made-up one.
    apiKey: options.apiKey || "unused",
    ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
  const maxTokensField = isOpenAIHost(baseURL) ? "max_completion_tokens" : "max_tokens";
  const name = options.name ?? "openai";
  const api = options.api ?? "auto";

  /** One retried request: `open` starts it on the wire, `read` turns what streams back into events. */
  function retried<T>(request: StreamRequest, open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
    read: (events: AsyncIterable<T>, draft: AssistantDraft) => AsyncIterable<ModelStreamEvent>): AsyncIterable<ModelStreamEvent> {
    return streamWithRetry({
      provider: name,
      model: request.model,
      signal: request.signal,
      retry: options.retry,
      describe: (err) => describeFailure(err, SDK_ERRORS),
      async *attempt(signal, draft, alive) {
        const events = await routingConsoleWarn(warn, () => open(signal));
        // SSE comment keep-alives (`: …`) never reach the iterator; only events count.
        yield* read(touching(events, alive), draft);
      },
    });
  }

  return {
    name,
    stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      // Shaped once, outside the attempts: a retry sends the same request.
      if (usesResponses(api, request.model, baseURL, name)) {
        const params = toResponsesParams(request);
        return retried(request, (signal) => client.responses.create(params, { signal }), translateResponses);
      }
      const params = (options.toParams ?? toOpenAIParams)(request, { maxTokensField });
      return retried(request, (signal) => client.chat.completions.create(params, { signal }), translate);
    },
  };
}

function isOpenAIHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith("openai.com");
  } catch {
    return false;
  }
}

/** Fields some servers add to a delta beyond OpenAI's own schema. */
interface CompatDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

function mapStop(reason: string, draft: AssistantDraft): StopReason {
  // Some servers report "stop" for a response that called tools; the calls decide.
  if (draft.hasToolCalls()) return "tool_use";
  switch (reason) {
    case "length": return "length";
    case "content_filter":
      draft.stopError = "the response was blocked by the provider's content filter";
      return "error";
    default: return "end_turn";
  }
}

async function* translate(chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  draft: AssistantDraft): AsyncGenerator<ModelStreamEvent> {
  const calls = new Map<number, ToolCallBlock>();
  let current: AssistantContent | undefined;
  let finishReason: string | undefined;
  const text = (): TextBlock => (current?.type === "text" ? current : (current = draft.startText()));
  const thinking = (): ThinkingBlock => (current?.type === "thinking" ? current : (current = draft.startThinking()));

  for await (const chunk of chunks) {
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      // prompt_tokens includes cached tokens; ours counts them apart, as Anthropic does.
      draft.tokens.input = Math.max(0, (chunk.usage.prompt_tokens ?? 0) - cached);
      draft.tokens.cache_read = cached;
      draft.tokens.output = chunk.usage.completion_tokens ?? 0;
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = (choice.delta ?? {}) as OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & CompatDelta;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      thinking().thinking += reasoning;
      yield { type: "thinking_delta", delta: reasoning };
    }
    const content = (delta.content ?? "") + (delta.refusal ?? "");
    if (content) {
      text().text += content;
      yield { type: "text_delta", delta: content };
    }
    for (const piece of delta.tool_calls ?? []) {
      let call = calls.get(piece.index);
      if (!call) {
        call = draft.startToolCall(piece.id || `call_${piece.index}`, piece.function?.name ?? "");
        calls.set(piece.index, call);
        current = call;
        yield { type: "tool_call_delta", id: call.id, name: call.name };
      } else if (!call.name && piece.function?.name) {
        call.name = piece.function.name;
      }
      const args = piece.function?.arguments;
      if (args) {
        draft.appendArgs(call, args);
        yield { type: "tool_call_delta", id: call.id, name: call.name, delta: args };
      }
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  // The SDK ends iteration quietly on abort and when the server closes before [DONE].
  if (finishReason === undefined) throw new IncompleteStreamError();
  draft.stop = mapStop(finishReason, draft);
}
