// The public endpoints, apart from the provider modules so naming one never loads an SDK.
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** Includes the version path, as OpenAI-compatible servers expect. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
