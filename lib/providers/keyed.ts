// A provider that looks its API key up at each request instead of once at start. A run can then
// begin without a key (slash commands, the REPL's prompt, /login), a request without one ends
// as a failed response that says how to log in (failure as data, never an exception), and a key
// saved by `zot login` or /login, or removed by logout, counts from the next request on.
import { isLoopbackUrl } from "./credentials.ts";
import { checkedEndpoint, createProvider, missingKeyMessage, needsApiKey, type CreateProviderOptions } from "./provider-registry.ts";
import type { ModelStreamEvent, Provider, StreamRequest } from "./types.ts";

export interface KeyedProviderOptions extends Omit<CreateProviderOptions, "apiKey"> {
  /** The key as things stand now (flag, environment, auth.json); may throw for an unreadable auth.json. */
  resolveKey(): string | undefined;
}

export interface KeyedProvider extends Provider {
  /** True when a request now would fail for want of a key (a loopback server needs none). */
  needsLogin(): boolean;
}

/**
 * Throws `ProviderConfigError` for an unknown provider or a malformed base URL, and whatever
 * `resolveKey` throws at construction (an auth.json that cannot be read stops the start, as before).
 */
export function keyedProvider(options: KeyedProviderOptions): KeyedProvider {
  const { provider } = options;
  const baseUrl = checkedEndpoint(provider, options.baseUrl);
  const keyless = isLoopbackUrl(baseUrl) || !needsApiKey(provider);
  let current: { key: string | undefined; provider: Provider } | undefined;
  const providerFor = (key: string | undefined, warm = false): Provider => {
    if (!current || current.key !== key) current = { key, provider: createProvider({ ...options, apiKey: key, warm }) };
    return current.provider;
  };
  const first = options.resolveKey();
  // Only a run that can reach the model warms up its connection.
  if (first || keyless) providerFor(first, options.warm);

  return {
    name: provider,
    needsLogin() {
      if (keyless) return false;
      try {
        return !options.resolveKey();
      } catch {
        return false; // a broken auth.json is reported by the request, with its reason
      }
    },
    async *stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      let key: string | undefined;
      try {
        key = options.resolveKey();
      } catch (err) {
        yield failed(request, provider, (err as Error).message);
        return;
      }
      if (!key && !keyless) {
        yield failed(request, provider, missingKeyMessage(provider, baseUrl, options.authFile));
        return;
      }
      yield* providerFor(key).stream(request);
    },
  };
}

function failed(request: StreamRequest, provider: string, error: string): ModelStreamEvent {
  return { type: "done", message: { role: "assistant", content: [], stop: "error", error, provider, model: request.model, timestamp: Date.now() } };
}
