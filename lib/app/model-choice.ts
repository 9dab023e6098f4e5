// Checks a /model or rpc set_model choice (`model` or `provider/model`) against the known models
// before it is applied. Where the list cannot be known (a custom base URL: a proxy, or an
// OpenAI-compatible server such as ollama) any id is accepted, with a warning.
import { DEFAULT_BASE_URLS, findModel, isPresetName, isProviderName, type ProviderName } from "../providers/index.ts";
import { parseModelSpec } from "./settings.ts";

export interface ModelChoice {
  provider: ProviderName;
  model: string;
  /** Set when the id is not a known model but is used as given. */
  warning?: string;
}

/** Throws an Error naming the problem for an unknown id on a provider whose models are known. */
export function checkModelChoice(spec: string, current: { provider: string; baseUrl?: string }): ModelChoice {
  // An id no provider accepts is refused first, whatever the provider.
  const parsed = parseModelSpec(spec, current.provider);
  if (!parsed.provider && !isProviderName(current.provider)) throw new Error(`unknown provider "${current.provider}"`);
  const provider = parsed.provider ?? (current.provider as ProviderName);
  const model = parsed.model;
  if (findModel(provider, model)) return { provider, model };
  // A cloud offers more models than zot knows, and changes them: any id is tried as given.
  if (isPresetName(provider)) {
    return { provider, model, warning: `"${model}" is not a model zot knows for ${provider}; used as given (zot --list-models --provider ${provider} lists what ${provider} offers)` };
  }
  if (!isCustomBaseUrl(provider, current.baseUrl)) {
    throw new Error(`unknown model "${model}" for ${provider} (zot --list-models shows the known ones)`);
  }
  return { provider, model, warning: `"${model}" is not a known ${provider} model; used as given for ${current.baseUrl}` };
}

function isCustomBaseUrl(provider: ProviderName, baseUrl: string | undefined): baseUrl is string {
  const trimmed = baseUrl?.trim().replace(/\/+$/, "");
  return Boolean(trimmed) && trimmed !== DEFAULT_BASE_URLS[provider].replace(/\/+$/, "");
}
