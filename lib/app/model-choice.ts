// Checks a /model or rpc set_model choice (`model` or `provider/model`) against the known models
// before it is applied. Where the list cannot be known (a custom base URL: a proxy, or an
// OpenAI-compatible server such as ollama) any id is accepted, with a warning.
import { DEFAULT_BASE_URLS, findModel, isProviderName, type ProviderName } from "../providers/index.ts";

export interface ModelChoice {
  provider: ProviderName;
  model: string;
  /** Set when the id is not a known model but is used as given. */
  warning?: string;
}

/** Throws an Error naming the problem for an unknown id on a provider whose models are known. */
export function checkModelChoice(spec: string, current: { provider: string; baseUrl?: string }): ModelChoice {
  const slash = spec.indexOf("/");
  const prefix = spec.slice(0, Math.max(0, slash));
  if (!isProviderName(prefix) && !isProviderName(current.provider)) throw new Error(`unknown provider "${current.provider}"`);
  const provider = isProviderName(prefix) ? prefix : (current.provider as ProviderName);
  const model = isProviderName(prefix) ? spec.slice(slash + 1) : spec;
  if (model.trim() === "") throw new Error("a model id is required");
  if (findModel(provider, model)) return { provider, model };
  if (!isCustomBaseUrl(provider, current.baseUrl)) {
    throw new Error(`unknown model "${model}" for ${provider} (zot --list-models shows the known ones)`);
  }
  return { provider, model, warning: `"${model}" is not a known ${provider} model; used as given for ${current.baseUrl}` };
}

function isCustomBaseUrl(provider: ProviderName, baseUrl: string | undefined): baseUrl is string {
  const trimmed = baseUrl?.trim().replace(/\/+$/, "");
  return Boolean(trimmed) && trimmed !== DEFAULT_BASE_URLS[provider].replace(/\/+$/, "");
}
