// Ollama: a local model server. Its chat speaks OpenAI's Chat Completions under `/v1`, so the
// OpenAI provider does the streaming; what is Ollama's own is that it needs no key, that its
// models are whatever the server has pulled (`/api/tags`), and that a stopped server is named as
// such, with how to start it.
import { createOpenAIProvider } from "./openai.ts";
import type { RetryOptions } from "./retry.ts";
import type { SdkWarn } from "./sdk-log.ts";
import type { ModelStreamEvent, Provider, StreamRequest } from "./types.ts";

export interface OllamaProviderOptions {
  /** The server's root (`http://127.0.0.1:11434`); a trailing `/v1` is accepted too. */
  baseUrl: string;
  apiKey?: string;
  retry?: RetryOptions;
  warn?: SdkWarn;
}

/** The server's root, without the `/v1` of its OpenAI-compatible routes. */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

export function createOllamaProvider(options: OllamaProviderOptions): Provider {
  const root = ollamaRoot(options.baseUrl);
  const chat = createOpenAIProvider({ ...options, baseUrl: `${root}/v1` });
  return {
    name: "ollama",
    async *stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      for await (const event of chat.stream(request)) {
        if (event.type !== "done") {
          yield event;
          continue;
        }
        const { message } = event;
        const unreachable = message.stop === "error" && /^connection (error|refused)/.test(message.error ?? "");
        yield { ...event, message: { ...message, provider: "ollama", ...(unreachable ? { error: `${notRunning(root)} (${message.error})` } : {}) } };
      }
    },
  };
}

function notRunning(root: string): string {
  return `no Ollama server answers at ${root}: start it with \`ollama serve\`, or pass --base-url`;
}

/** The models the server has pulled, by name (`llama3.2:latest`), newest first as it lists them. */
export async function ollamaModels(baseUrl: string, signal?: AbortSignal): Promise<string[]> {
  const root = ollamaRoot(baseUrl);
  let response: Response;
  try {
    response = await fetch(`${root}/api/tags`, signal ? { signal } : {});
  } catch (err) {
    throw new Error(`${notRunning(root)} (${(err as Error).message})`);
  }
  if (!response.ok) throw new Error(`${root}/api/tags answered HTTP ${response.status}`);
  const body = await response.json() as { models?: Array<{ name?: unknown; model?: unknown }> };
  return (body.models ?? []).flatMap((m) => (typeof m.name === "string" ? [m.name] : typeof m.model === "string" ? [m.model] : []));
}
