// The public endpoints, apart from the provider modules so naming one never loads an SDK.
import { byPreset } from "./presets.ts";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** Includes the version path, as OpenAI-compatible servers expect. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** Ollama's own port on this machine (its OpenAI-compatible routes are under `/v1`). */
export const OLLAMA_BASE_URL = "http://127.0.0.1:11434";

/** The Gemini Developer API's root; the SDK adds the `/v1beta` version path. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

/** Each provider's public endpoint, by name. */
export const DEFAULT_BASE_URLS_BY_NAME = {
  anthropic: ANTHROPIC_BASE_URL, openai: OPENAI_BASE_URL, ollama: OLLAMA_BASE_URL, gemini: GEMINI_BASE_URL,
  ...byPreset((preset) => preset.baseUrl),
};
