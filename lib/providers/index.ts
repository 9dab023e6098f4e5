// The providers layer's public face: the provider registry (names, endpoints, createProvider)
// and the types, credentials, presets, models, retry and usage helpers callers need.
export type * from "./types.ts";
export { API_KEY_ENV, API_KEY_ENVS, CredentialsError, isLoopbackUrl, keyVariableSet, keyVariablesText, resolveApiKey, type ResolveApiKeyOptions, type ResolvedApiKey } from "./credentials.ts";
export { CLOUD_PRESETS, isPresetName, type PresetName } from "./presets.ts";
export { DEFAULT_CONTEXT_WINDOW, DEFAULT_MODELS, findModel, listModels, modelIdProblem, modelInfo, type ProviderName } from "./models.ts";
export { DEFAULT_RETRY, type RetryOptions } from "./retry.ts";
export type { SdkWarn } from "./sdk-log.ts";
export { addUsage, costOf, emptyUsage, priceUsage, type TokenCounts } from "./usage.ts";
export * from "./provider-registry.ts";
