// Gemini (the Gemini Developer API) over SSE with Google's SDK. Its web entry is used on every
// runtime: it needs only fetch and an API key, while the Node entry adds Google Cloud auth
// libraries zot never uses. Each streamed chunk holds whole parts (text, thought text, function
// calls), some with a `thoughtSignature` that is kept on the block it belongs to.
import { GoogleGenAI, type GenerateContentResponse, type Part } from "@google/genai/web";
import { GEMINI_BASE_URL } from "./base-urls.ts";
import type { AssistantDraft } from "./draft.ts";
import { IncompleteStreamError } from "./errors.ts";
import { describeGeminiFailure, GeminiHttpFailure } from "./gemini-errors.ts";
import { toGeminiParams } from "./gemini-request.ts";
import { streamWithRetry, type RetryOptions } from "./retry.ts";
import { routingConsoleWarn, stderrWarn, type SdkWarn } from "./sdk-log.ts";
import { touching } from "./stall.ts";
import type { AssistantContent, ModelStreamEvent, Provider, StopReason, StreamRequest } from "./types.ts";

export interface GeminiProviderOptions {
  /** Sent as `x-goog-api-key`; omit for a keyless local server. */
  apiKey?: string;
  /** The server's root (`https://generativelanguage.googleapis.com`); the SDK adds `/v1beta`. */
  baseUrl?: string;
  retry?: RetryOptions;
  /** The SDK's warnings, one line each (default: stderr). */
  warn?: SdkWarn;
}

const API_VERSION = "v1beta";
const KEY_HEADER = "x-goog-api-key";

export function createGeminiProvider(options: GeminiProviderOptions = {}): Provider {
  const warn = options.warn ?? stderrWarn;
  const baseUrl = (options.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, "").replace(/\/v1(beta)?$/, "");
  // The SDK insists on a key; for a keyless server the header is taken out again below.
  const client = new GoogleGenAI({ apiKey: options.apiKey || "unused", httpOptions: { baseUrl, apiVersion: API_VERSION } });

  return {
    name: "gemini",
    stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      return streamWithRetry({
        provider: "gemini",
        model: request.model,
        signal: request.signal,
        retry: options.retry,
        describe: (err) => describeGeminiFailure(err),
        async *attempt(signal, draft, alive) {
          const params = toGeminiParams(request);
          params.config = { ...params.config, abortSignal: signal, httpOptions: { fetch: recordingFetch(options.apiKey) } };
          const chunks = await routingConsoleWarn(warn, () => client.models.generateContentStream(params));
          yield* translate(touching(chunks, alive), draft);
        },
      });
    },
  };
}

/**
 * fetch that keeps what the SDK drops: an error answer's headers (for `retry-after`), read once
 * here; without a key it sends no key header at all.
 */
function recordingFetch(apiKey: string | undefined): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (!apiKey) headers.delete(KEY_HEADER);
    const response = await fetch(input, { ...init, headers });
    if (response.ok) return response;
    const body = await response.text().catch(() => "");
    throw new GeminiHttpFailure(response.status, body, response.headers);
  };
}

/** Wire finish reasons → ours. Blocked or malformed responses complete, but as errors with a reason. */
function mapStop(reason: string, draft: AssistantDraft): StopReason {
  if (reason === "MAX_TOKENS") return "length";
  if (reason === "STOP" || reason === "FINISH_REASON_UNSPECIFIED" || reason === "") return draft.hasToolCalls() ? "tool_use" : "end_turn";
  if (reason === "MALFORMED_FUNCTION_CALL" || reason === "UNEXPECTED_TOOL_CALL") {
    draft.stopError = `the model produced an invalid function call (${reason})`;
    return "error";
  }
  draft.stopError = `the response was blocked by the provider (${reason})`;
  return "error";
}

async function* translate(chunks: AsyncIterable<GenerateContentResponse>, draft: AssistantDraft): AsyncGenerator<ModelStreamEvent> {
  let current: AssistantContent | undefined;
  let finishReason: string | undefined;
  let calls = 0;
  for await (const chunk of chunks) {
    const usage = chunk.usageMetadata;
    if (usage) {
      const cached = usage.cachedContentTokenCount ?? 0;
      // promptTokenCount includes cached tokens; ours counts them apart. Thoughts bill as output.
      draft.tokens.input = Math.max(0, (usage.promptTokenCount ?? 0) - cached);
      draft.tokens.cache_read = cached;
      draft.tokens.output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
    }
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked && !chunk.candidates?.length) {
      draft.stopError = `the prompt was blocked by the provider (${blocked})`;
      draft.stop = "error";
      return;
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      for (const event of readPart(part)) yield event;
    }
    if (candidate?.finishReason) finishReason = candidate.finishReason;
  }
  // The SDK ends iteration quietly when the server closes before the last chunk.
  if (finishReason === undefined) throw new IncompleteStreamError();
  draft.stop = mapStop(finishReason, draft);

  function* readPart(part: Part): Generator<ModelStreamEvent> {
    const signature = part.thoughtSignature || undefined;
    if (part.functionCall) {
      const call = draft.startToolCall(part.functionCall.id || `call_${++calls}`, part.functionCall.name ?? "");
      if (signature) call.signature = signature;
      current = call;
      yield { type: "tool_call_delta", id: call.id, name: call.name };
      const args = JSON.stringify(part.functionCall.args ?? {});
      draft.appendArgs(call, args);
      yield { type: "tool_call_delta", id: call.id, name: call.name, delta: args };
      return;
    }
    if (part.text === undefined && !signature) return;
    const text = part.text ?? "";
    if (part.thought) {
      // A signed block is closed: a later part must not be merged into what the signature covers.
      if (current?.type !== "thinking" || current.signature) current = draft.startThinking();
      current.thinking += text;
      if (signature) current.signature = signature;
      if (text) yield { type: "thinking_delta", delta: text };
      return;
    }
    if (current?.type !== "text" || current.signature) current = draft.startText();
    current.text += text;
    if (signature) current.signature = signature;
    if (text) yield { type: "text_delta", delta: text };
  }
}
