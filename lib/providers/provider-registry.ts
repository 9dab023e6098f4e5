// The providers by name: which exist, which need a key, their endpoints, building one (lazily
// loaded, optionally warmed), the missing-key message, and pricing a model's usage.
import { DEFAULT_BASE_URLS_BY_NAME } from "./base-urls.ts";
import { isLoopbackUrl, keyVariablesText } from "./credentials.ts";
import { lazyProvider } from "./lazy.ts";
import { preconnect } from "./preconnect.ts";
import { modelInfo, type ProviderName } from "./models.ts";
import { openaiApiFromEnv, type OpenAIApi } from "./openai-api.ts";
import { isPresetName, PRESET_NAMES } from "./presets.ts";
import type { RetryOptions } from "./retry.ts";
import type { SdkWarn } from "./sdk-log.ts";
import type { Provider, Usage } from "./types.ts";
import { priceUsage, type TokenCounts } from "./usage.ts";

export const PROVIDER_NAMES: readonly ProviderName[] = ["anthropic", "openai", "ollama", "gemini", ...PRESET_NAMES];

/** Providers that need no API key (a local server). */
const KEYLESS: ReadonlySet<ProviderName> = new Set(["ollama"]);

export const DEFAULT_BASE_URLS: Record<ProviderName, string> = DEFAULT_BASE_URLS_BY_NAME;

export function needsApiKey(provider: ProviderName): boolean {
  return !KEYLESS.has(provider);
}

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

export interface CreateProviderOptions {
  provider: ProviderName;
  /** Already resolved (see `resolveApiKey`); may be omitted only for a loopback `baseUrl`. */
  apiKey?: string;
  /** Defaults to the provider's public API. For openai it includes the `/v1` path. */
  baseUrl?: string;
  retry?: RetryOptions;
  /** The SDK's log lines and warnings, one line each (default: stderr). */
  warn?: SdkWarn;
  /**
   * The run asks the model soon (a one-shot prompt): load the SDK and open the connection now,
   * alongside the rest of start-up, instead of at the first request.
   */
  warm?: boolean;
  /** Where saved keys live (named by the missing-key message). */
  authFile?: string;
  /** openai only: force Chat Completions or the Responses API (default: `ZOT_OPENAI_API`, else per model). */
  openaiApi?: OpenAIApi;
}

/** Configuration that cannot work, found before any request is made (usage error, exit 2). */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderConfigError";
  }
}

/** The base URL `provider` is reached at; throws `ProviderConfigError` for an unknown provider or a malformed URL. */
export function checkedEndpoint(provider: string, baseUrl: string | undefined): string {
  if (!isProviderName(provider)) {
    throw new ProviderConfigError(`unknown provider "${String(provider)}" (expected one of: ${PROVIDER_NAMES.join(", ")})`);
  }
  const url = baseUrl?.trim() || DEFAULT_BASE_URLS[provider];
  if (!URL.canParse(url)) throw new ProviderConfigError(`invalid base URL "${url}"`);
  return url;
}

/**
 * A provider ready to stream. Throws `ProviderConfigError` for an unknown provider, a malformed
 * base URL, or a missing API key for a server that is not on this machine.
 */
export function createProvider(options: CreateProviderOptions): Provider {
  const { provider } = options;
  const baseUrl = checkedEndpoint(provider, options.baseUrl);
  const apiKey = options.apiKey?.trim() || undefined;
  if (!apiKey && needsApiKey(provider) && !isLoopbackUrl(baseUrl)) throw new ProviderConfigError(missingKeyMessage(provider, baseUrl, options.authFile));
  const settings = { apiKey, baseUrl, retry: options.retry, warn: options.warn };
  const lazy = lazyProvider(provider, async () => {
    switch (provider) {
      case "anthropic": return (await import("./anthropic.ts")).createAnthropicProvider(settings);
      case "ollama": return (await import("./ollama.ts")).createOllamaProvider(settings);
      case "gemini": return (await import("./gemini.ts")).createGeminiProvider(settings);
      case "openai": return (await import("./openai.ts")).createOpenAIProvider({ ...settings, api: options.openaiApi ?? openaiApiFromEnv() });
      default:
        if (isPresetName(provider)) return (await import("./preset-provider.ts")).createPresetProvider(provider, settings);
        return (await import("./openai.ts")).createOpenAIProvider(settings);
    }
  });
  if (options.warm) {
    preconnect(baseUrl);
    lazy.warm();
  }
  return lazy;
}

/**
 * What to do about a missing key: log in (saved in `authFile`), the environment variable, or
 * the flag. Names the real auth.json path when it is known.
 */
export function missingKeyMessage(provider: ProviderName, baseUrl: string, authFile?: string): string {
  const env = keyVariablesText(provider);
  const custom = baseUrl.replace(/\/+$/, "") !== DEFAULT_BASE_URLS[provider];
  return `no API key for ${provider}: run \`zot login\` (or /login in the REPL) to save one in ${authFile ?? "$ZOT_HOME/auth.json"}, `
    + `set ${env}, or pass --api-key` + (custom ? ` (a server at ${baseUrl} that needs no key accepts any value)` : "");
}

/** Prices token counts for a provider's model; unknown models cost 0. */
export function usageFor(provider: string, model: string, tokens: TokenCounts): Usage {
  return priceUsage(tokens, modelInfo(provider, model));
}
