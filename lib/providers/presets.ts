// OpenAI-compatible clouds: each is the OpenAI Chat Completions provider at another base URL,
// with its own key variable(s), default model and known models. Adding a cloud is one entry
// here; provider names, base URLs, key variables, default models and the catalogue derive
// from this table.
//
// Prices are USD per million tokens as each vendor publishes them; 0 means no published price
// was found (the run then costs 0, as for any unknown model). Where a vendor publishes no cached
// input price, cache reads are billed at the input price, so costs are not undercounted.

/** [id, context window, max output, input, output, cache read]; 0 max output: not published. */
export type PresetModelRow = [id: string, context: number, maxOutput: number, input: number, output: number, cacheRead: number];

export interface CloudPreset {
  /** Includes the version path, as the OpenAI SDK expects. */
  baseUrl: string;
  /** Environment variables holding the key, in the order they are read. */
  keyEnv: readonly [string, ...string[]];
  defaultModel: string;
  models: readonly PresetModelRow[];
  /**
   * Path under the base URL that `zot login` checks a key with (default `/models`). OpenRouter
   * lists models without a key, so its key is checked on `/key`.
   */
  keyCheckPath?: string;
  /** Models the vendor has announced an end of life for, with that date. */
  deprecated?: Readonly<Record<string, string>>;
}

const K = 1_000;
const M = 1_000_000;

export const CLOUD_PRESETS = {
  // No per-model price table was found; OpenRouter prices vary by upstream route.
  openrouter: {
    baseUrl: "https://openrouter.ai/api/v1",
    keyEnv: ["OPENROUTER_API_KEY"],
    defaultModel: "openai/gpt-oss-120b",
    keyCheckPath: "/key",
    models: [
      ["openai/gpt-oss-120b", 131_072, 0, 0, 0, 0],
      ["moonshotai/kimi-k3", M, 0, 0, 0, 0],
      ["deepseek/deepseek-chat", 64 * K, 0, 0, 0, 0],
    ],
  },
  // console.groq.com/docs/models (production models: price per 1M tokens, context, max completion).
  groq: {
    baseUrl: "https://api.groq.com/openai/v1",
    keyEnv: ["GROQ_API_KEY"],
    defaultModel: "openai/gpt-oss-120b",
    models: [
      ["openai/gpt-oss-120b", 131_072, 65_536, 0.15, 0.6, 0.15],
      ["openai/gpt-oss-20b", 131_072, 65_536, 0.075, 0.3, 0.075],
      ["llama-3.3-70b-versatile", 131_072, 32_768, 0.59, 0.79, 0.59],
      ["llama-3.1-8b-instant", 131_072, 131_072, 0.05, 0.08, 0.05],
    ],
  },
  // docs.x.ai/developers/models (in, cached in, out).
  xai: {
    baseUrl: "https://api.x.ai/v1",
    keyEnv: ["XAI_API_KEY"],
    defaultModel: "grok-4.20-0309-reasoning",
    models: [
      ["grok-4.20-0309-reasoning", 2 * M, 0, 2, 6, 0.2],
      ["grok-4.20-0309-non-reasoning", 2 * M, 0, 2, 6, 0.2],
      ["grok-4-1-fast-reasoning", 2 * M, 0, 0.2, 0.5, 0.05],
      ["grok-4-1-fast-non-reasoning", 2 * M, 0, 0.2, 0.5, 0.05],
    ],
  },
  // api-docs.deepseek.com/quick_start/pricing-details-usd (cache miss, output, cache hit).
  deepseek: {
    baseUrl: "https://api.deepseek.com",
    keyEnv: ["DEEPSEEK_API_KEY"],
    defaultModel: "deepseek-chat",
    models: [
      ["deepseek-chat", 64 * K, 8 * K, 0.27, 1.1, 0.07],
      ["deepseek-reasoner", 64 * K, 8 * K, 0.55, 2.19, 0.14],
    ],
  },
  // No Mistral pricing page was found: prices 0; context windows are not published here either.
  mistral: {
    baseUrl: "https://api.mistral.ai/v1",
    keyEnv: ["MISTRAL_API_KEY"],
    defaultModel: "mistral-large-latest",
    models: [
      ["mistral-large-latest", 128 * K, 0, 0, 0, 0],
      ["mistral-medium-latest", 128 * K, 0, 0, 0, 0],
      ["mistral-small-latest", 128 * K, 0, 0, 0, 0],
      ["codestral-latest", 128 * K, 0, 0, 0, 0],
    ],
  },
  // No Cerebras pricing page was found: prices 0. Context is the paid tiers' (65k on the free one).
  cerebras: {
    baseUrl: "https://api.cerebras.ai/v1",
    keyEnv: ["CEREBRAS_API_KEY"],
    defaultModel: "gpt-oss-120b",
    models: [
      ["gpt-oss-120b", 131_072, 0, 0, 0, 0],
    ],
  },
  // Together publishes rates in its serverless catalogue, but no rates were found: prices 0.
  together: {
    baseUrl: "https://api.together.xyz/v1",
    keyEnv: ["TOGETHER_API_KEY"],
    defaultModel: "openai/gpt-oss-120b",
    models: [
      ["openai/gpt-oss-120b", 131_072, 0, 0, 0, 0],
      ["meta-llama/Llama-3.3-70B-Instruct-Turbo", 131_072, 0, 0, 0, 0],
      ["deepseek-ai/DeepSeek-R1", 128 * K, 0, 0, 0, 0],
    ],
  },
  // Moonshot's own pricing page was not found: prices 0.
  kimi: {
    baseUrl: "https://api.moonshot.ai/v1",
    keyEnv: ["KIMI_API_KEY", "MOONSHOT_API_KEY"],
    defaultModel: "kimi-k3",
    models: [
      ["kimi-k3", 1_048_576, 131_072, 0, 0, 0],
      ["kimi-k2.6", 262_144, 262_144, 0, 0, 0],
    ],
  },
} as const satisfies Record<string, CloudPreset>;

export type PresetName = keyof typeof CLOUD_PRESETS;

export const PRESET_NAMES = Object.keys(CLOUD_PRESETS) as PresetName[];

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(CLOUD_PRESETS, name);
}

export function presetOf(name: PresetName): CloudPreset {
  return CLOUD_PRESETS[name];
}

/** `{preset: f(preset)}` for every preset, for the tables keyed by provider name. */
export function byPreset<T>(pick: (preset: CloudPreset, name: PresetName) => T): Record<PresetName, T> {
  return Object.fromEntries(PRESET_NAMES.map((name) => [name, pick(CLOUD_PRESETS[name], name)])) as Record<PresetName, T>;
}
