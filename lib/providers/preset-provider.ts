// A cloud preset (presets.ts): the OpenAI Chat Completions provider at the cloud's base URL,
// under the cloud's name. Kimi additionally declares activated deferred tools in place.
import { kimiToolPlacement } from "./kimi-tools.ts";
import { createOpenAIProvider } from "./openai.ts";
import { CLOUD_PRESETS, type PresetName } from "./presets.ts";
import type { RetryOptions } from "./retry.ts";
import type { SdkWarn } from "./sdk-log.ts";
import type { Provider } from "./types.ts";

export interface PresetProviderOptions {
  apiKey?: string;
  /** Defaults to the preset's; includes the version path. */
  baseUrl?: string;
  retry?: RetryOptions;
  warn?: SdkWarn;
}

export function createPresetProvider(name: PresetName, options: PresetProviderOptions = {}): Provider {
  return createOpenAIProvider({
    ...options,
    baseUrl: options.baseUrl ?? CLOUD_PRESETS[name].baseUrl,
    name,
    ...(name === "kimi" ? { toParams: kimiToolPlacement() } : {}),
  });
}
