// Which provider, model and endpoint a run uses: flag, then environment, then the last choice
// saved in config.json (only when it was for the same provider), then the provider's default.
import type { ZotConfig } from "../config.ts";
import { DEFAULT_MODELS, isProviderName, type ProviderName } from "../providers/index.ts";
import type { RunConfig } from "./run-config.ts";
import { UsageError } from "../errors.ts";

export interface ModelSettings {
  provider: ProviderName;
  model: string;
  baseUrl?: string;
}

export function resolveModelSettings(
  options: Pick<RunConfig, "provider" | "model" | "baseUrl">,
  env: Record<string, string | undefined>,
  config: ZotConfig,
): ModelSettings {
  const provider = options.provider ?? env.ZOT_PROVIDER ?? (typeof config.provider === "string" ? config.provider : undefined) ?? "anthropic";
  if (!isProviderName(provider)) throw new UsageError(`unknown provider "${provider}" (use anthropic or openai)`);
  const sameAsSaved = config.provider === provider;
  const savedModel = sameAsSaved && typeof config.model === "string" ? config.model : undefined;
  const savedUrl = sameAsSaved && typeof config.base_url === "string" ? config.base_url : undefined;
  return {
    provider,
    model: options.model ?? env.ZOT_MODEL ?? savedModel ?? DEFAULT_MODELS[provider],
    baseUrl: options.baseUrl ?? env.ZOT_BASE_URL ?? savedUrl,
  };
}
