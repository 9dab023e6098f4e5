// Which provider, model and endpoint a run uses: flag, then environment, then the last choice
// saved in config.json (only when it was for the same provider), then the provider's default.
// Every model id is checked where it enters (flag, environment, config file, /model and rpc
// set_model), so one that no provider accepts is never sent nor saved.
import type { ZotConfig } from "../config.ts";
import { DEFAULT_MODELS, findModel, isPresetName, isProviderName, modelIdProblem, PROVIDER_NAMES, type ProviderName } from "../providers/index.ts";
import type { RunConfig } from "./run-config.ts";
import { UsageError } from "../errors.ts";

export interface ModelSettings {
  provider: ProviderName;
  model: string;
  baseUrl?: string;
}

/** A model id given by the user: refused with a UsageError naming where it came from. */
function checkedModel(id: string | undefined, from: string): string | undefined {
  if (id === undefined) return undefined;
  const problem = modelIdProblem(id);
  if (problem) throw new UsageError(`${from} ${JSON.stringify(id)} is not a valid model id: ${problem}`);
  return id;
}

/** config.json's model when it is a usable id; otherwise undefined and `warn` says why. */
export function savedModel(config: ZotConfig, warn: (message: string) => void = () => {}): string | undefined {
  const model = config.model;
  if (model === undefined) return undefined;
  const problem = typeof model === "string" ? modelIdProblem(model) : "a model id must be a string";
  if (problem === undefined) return model as string;
  warn(`the saved model ${JSON.stringify(model)} is not a valid model id (${problem}); ignoring it`);
  return undefined;
}

/**
 * `warn` hears about a saved model that cannot be used (it is ignored); a flag or environment
 * value that cannot be used is a UsageError. An empty ZOT_MODEL counts as unset.
 */
export function resolveModelSettings(
  options: Pick<RunConfig, "provider" | "model" | "baseUrl">,
  env: Record<string, string | undefined>,
  config: ZotConfig,
  warn: (message: string) => void = () => {},
): ModelSettings {
  const provider = options.provider ?? env.ZOT_PROVIDER ?? (typeof config.provider === "string" ? config.provider : undefined) ?? "anthropic";
  if (!isProviderName(provider)) throw new UsageError(`unknown provider "${provider}" (use ${PROVIDER_NAMES.join(", ")})`);
  const sameAsSaved = config.provider === provider;
  const saved = sameAsSaved ? savedModel(config, warn) : undefined;
  const savedUrl = sameAsSaved && typeof config.base_url === "string" ? config.base_url : undefined;
  return {
    provider,
    model: checkedModel(options.model, "--model") ?? checkedModel(env.ZOT_MODEL || undefined, "ZOT_MODEL") ?? saved ?? DEFAULT_MODELS[provider],
    baseUrl: options.baseUrl ?? env.ZOT_BASE_URL ?? savedUrl,
  };
}

/**
 * A `/model` or rpc `set_model` argument: `model`, or `provider/model` to switch provider.
 * Throws an Error saying why an id cannot be used.
 */
export function parseModelSpec(spec: string, current?: string): { provider?: ProviderName; model: string } {
  // A cloud's own ids may look like `provider/model` (groq's `openai/gpt-oss-120b`): a known
  // model of the current cloud stays on it; `groq/openai/gpt-oss-20b` names the cloud outright.
  if (current !== undefined && isPresetName(current) && findModel(current, spec)) return { model: spec };
  const slash = spec.indexOf("/");
  const prefix = spec.slice(0, Math.max(0, slash));
  const [provider, model] = isProviderName(prefix) ? [prefix, spec.slice(slash + 1)] : [undefined, spec];
  const problem = modelIdProblem(model);
  if (problem) throw new Error(`${JSON.stringify(spec)} is not a valid model id: ${problem}; the model is unchanged`);
  return { ...(provider ? { provider } : {}), model };
}
