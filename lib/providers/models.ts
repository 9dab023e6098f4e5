// Known models per provider: context window, output limit and USD prices per million tokens,
// for `--list-models` and cost accounting. Prices are list prices as published by each vendor
// (late 2026); any other model id is allowed and costs 0 (see `modelInfo`).
import { byPreset, CLOUD_PRESETS, PRESET_NAMES, type PresetName } from "./presets.ts";
import type { ModelInfo } from "./types.ts";
import type { UserModel } from "./user-models.ts";

/** The built-in providers, then the OpenAI-compatible clouds of presets.ts. */
export type ProviderName = "anthropic" | "openai" | "ollama" | "gemini" | PresetName;

/** Context window assumed for a model id zot does not know. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The model used when neither `--model` nor config names one. */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4",
  // Ollama runs what was pulled; this is a common first pull (`ollama pull llama3.2`).
  ollama: "llama3.2",
  gemini: "gemini-3.8-flash",
  ...byPreset((preset) => preset.defaultModel),
};

type Row = [id: string, context: number, maxOutput: number, input: number, output: number, cacheRead: number, cacheWrite: number, thinking?: ModelInfo["thinking"]];

const K = 1_000;
const M = 1_000_000;

// Anthropic cache writes are the 5-minute tier (what zot's cache_control markers ask for).
// Haiku 5.5 is billed higher above 100k prompt tokens; the table holds its lower band.
const ANTHROPIC: Row[] = [
  ["claude-fable-5-2", M, 128 * K, 8, 40, 0.2, 10, "adaptive"],
  ["claude-fable-5-1", M, 128 * K, 10, 50, 0.25, 12.5, "adaptive"],
  ["claude-opus-5-5", M, 128 * K, 4, 20, 0.2, 5, "adaptive"],
  ["claude-sonnet-5-5", M, 128 * K, 2, 10, 0.1, 2.5, "adaptive"],
  ["claude-haiku-5-5", M, 128 * K, 0.1, 0.5, 0.01, 0.125, "adaptive"],
  ["claude-fable-5", M, 128 * K, 10, 50, 1, 12.5, "adaptive"],
  ["claude-opus-5", M, 128 * K, 5, 25, 0.5, 6.25, "adaptive"],
  ["claude-sonnet-5", M, 128 * K, 2, 10, 0.2, 2.5, "adaptive"],
  ["claude-opus-4-8", M, 128 * K, 5, 25, 0.5, 6.25, "adaptive"],
  ["claude-opus-4-7", M, 128 * K, 5, 25, 0.5, 6.25, "adaptive"],
  ["claude-opus-4-6", M, 128 * K, 5, 25, 0.5, 6.25, "adaptive"],
  ["claude-sonnet-4-6", M, 64 * K, 3, 15, 0.3, 3.75, "adaptive"],
  ["claude-opus-4-5", 200 * K, 64 * K, 5, 25, 0.5, 6.25, "budget"],
  ["claude-sonnet-4-5", 200 * K, 64 * K, 3, 15, 0.3, 3.75, "budget"],
  ["claude-haiku-4-5", 200 * K, 64 * K, 1, 5, 0.1, 1.25, "budget"],
];

// End-of-life dates of deprecated models, as the vendor (and its SDK) announces them.
const DEPRECATED: Record<string, string> = {
  "claude-opus-4-5": "January 22nd, 2027",
  "claude-sonnet-4-5": "November 30th, 2026",
};

// OpenAI bills no cache writes; cached input is read at the cache_read price. Reasoning models
// take a reasoning effort ("effort").
const OPENAI: Row[] = [
  ["gpt-5.4", 400 * K, 128 * K, 2.5, 15, 0.25, 0, "effort"],
  ["gpt-5.4-mini", 400 * K, 128 * K, 0.75, 4.5, 0.075, 0, "effort"],
  ["gpt-5.2", 400 * K, 128 * K, 1.75, 14, 0.175, 0, "effort"],
  ["gpt-5.1", 400 * K, 128 * K, 1.25, 10, 0.125, 0, "effort"],
  ["gpt-5", 400 * K, 128 * K, 1.25, 10, 0.125, 0, "effort"],
  ["gpt-5-mini", 400 * K, 128 * K, 0.25, 2, 0.025, 0, "effort"],
  ["gpt-5-nano", 400 * K, 128 * K, 0.05, 0.4, 0.005, 0, "effort"],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5, 0],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1, 0],
  ["gpt-4.1-nano", 1_047_576, 32_768, 0.1, 0.4, 0.025, 0],
  ["o3", 200 * K, 100 * K, 2, 8, 0.5, 0, "effort"],
  ["o4-mini", 200 * K, 100 * K, 1.1, 4.4, 0.275, 0, "effort"],
  ["gpt-4o", 128 * K, 16_384, 2.5, 10, 1.25, 0],
  ["gpt-4o-mini", 128 * K, 16_384, 0.15, 0.6, 0.075, 0],
];

// Gemini: paid-tier list prices of the Gemini Developer API pricing page, prompts up to 200k
// tokens (Pro bills more above). Only models whose input and output prices were both found are
// listed; cache reads are 0 where no context-caching price was found. Gemini 3 takes a thinking
// level ("effort"); Gemini 2.x a thinking budget. 3.8 Flash's price is the one valid until the end
// of 2026.
const GEMINI: Row[] = [
  ["gemini-3.8-flash", 1_048_576, 65_536, 0.75, 3.75, 0, 0, "effort"],
  ["gemini-3.5-flash", 1_048_576, 65_536, 1.5, 9, 0, 0, "effort"],
  ["gemini-3.5-flash-lite", 1_048_576, 65_536, 0.3, 2.5, 0, 0, "effort"],
  ["gemini-3.1-pro-preview", 1_048_576, 65_536, 2, 12, 0, 0, "effort"],
];

function toInfo(provider: ProviderName, [id, context, maxOutput, input, output, cacheRead, cacheWrite, thinking]: Row): ModelInfo {
  const info: ModelInfo = {
    provider,
    id,
    context_window: context,
    max_output: maxOutput,
    cost: { input, output, cache_read: cacheRead, cache_write: cacheWrite },
  };
  if (thinking) info.thinking = thinking;
  if (DEPRECATED[id]) info.deprecated = DEPRECATED[id];
  return info;
}

function presetInfo(provider: PresetName): ModelInfo[] {
  const preset = CLOUD_PRESETS[provider];
  const deprecated: Readonly<Record<string, string>> = "deprecated" in preset ? preset.deprecated as Record<string, string> : {};
  return preset.models.map(([id, context, maxOutput, input, output, cacheRead]) => {
    const info: ModelInfo = { provider, id, context_window: context, cost: { input, output, cache_read: cacheRead, cache_write: 0 } };
    if (maxOutput > 0) info.max_output = maxOutput;
    if (deprecated[id]) info.deprecated = deprecated[id];
    return info;
  });
}

const BUILTIN: ModelInfo[] = [
  ...ANTHROPIC.map((row) => toInfo("anthropic", row)),
  ...OPENAI.map((row) => toInfo("openai", row)),
  ...GEMINI.map((row) => toInfo("gemini", row)),
  ...PRESET_NAMES.flatMap(presetInfo),
];

/** The known models: the built-in ones with the user's models.json applied (see `useUserModels`). */
let CATALOGUE: ModelInfo[] = BUILTIN;

/**
 * Applies the user's models (`$ZOT_HOME/models.json`): a known id takes the fields given over its
 * own, a new id joins its provider's list (unknown prices cost 0, the default context window).
 */
export function useUserModels(models: readonly UserModel[]): void {
  const catalogue = BUILTIN.map(cloneInfo);
  for (const user of models) {
    const at = catalogue.findIndex((m) => m.provider === user.provider && m.id === user.id);
    const base = at >= 0 ? catalogue[at]! : modelInfoOf(user.provider, user.id);
    const merged: ModelInfo = {
      ...base,
      ...(user.context_window !== undefined ? { context_window: user.context_window } : {}),
      ...(user.max_output !== undefined ? { max_output: user.max_output } : {}),
      cost: { ...base.cost, ...user.cost },
    };
    if (user.thinking === null) delete merged.thinking;
    else if (user.thinking !== undefined) merged.thinking = user.thinking;
    if (at >= 0) catalogue[at] = merged;
    else catalogue.push(merged);
  }
  CATALOGUE = catalogue;
}

/** Longest model id accepted; real ones (with an organisation path) stay far below. */
export const MODEL_ID_MAX_LENGTH = 256;

/**
 * Why `id` cannot be a model id, or undefined when it can. Any id a provider might know is
 * allowed (`llama3.1:8b`, `accounts/x/models/y`); what no provider accepts is refused here, so
 * it is never sent, and never saved as the default of every later run.
 */
export function modelIdProblem(id: string): string | undefined {
  if (id.trim() === "") return "a model id must not be empty";
  if (/[\s\p{Cc}]/u.test(id)) return "a model id must not contain spaces or control characters";
  if (id.length > MODEL_ID_MAX_LENGTH) return `a model id must not be longer than ${MODEL_ID_MAX_LENGTH} characters`;
  return undefined;
}

/** Known models, all or one provider's, in catalogue order (newest first within a family). */
export function listModels(provider?: string): ModelInfo[] {
  return CATALOGUE.filter((m) => provider === undefined || m.provider === provider).map(cloneInfo);
}

/** The catalogue entry for `id`, also matching dated snapshots (`claude-haiku-4-5-20251001`, `gpt-4.1-2025-04-14`). */
export function findModel(provider: string, id: string): ModelInfo | undefined {
  const exact = CATALOGUE.find((m) => m.provider === provider && m.id === id);
  if (exact) return cloneInfo(exact);
  const base = id.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, "");
  const dated = base !== id ? CATALOGUE.find((m) => m.provider === provider && m.id === base) : undefined;
  return dated ? { ...cloneInfo(dated), id } : undefined;
}

/** Like `findModel`, but an unknown id gets zero cost and the default context window. */
export function modelInfo(provider: string, id: string): ModelInfo {
  return findModel(provider, id) ?? modelInfoOf(provider, id);
}

function modelInfoOf(provider: string, id: string): ModelInfo {
  return { provider, id, context_window: DEFAULT_CONTEXT_WINDOW, cost: { input: 0, output: 0, cache_read: 0, cache_write: 0 } };
}

function cloneInfo(info: ModelInfo): ModelInfo {
  return { ...info, cost: { ...info.cost } };
}
