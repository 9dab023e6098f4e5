// Which OpenAI wire a request uses: the Responses API for OpenAI's own reasoning and codex
// models (where it keeps reasoning across turns), Chat Completions everywhere else, since
// compatible servers and cloud presets speak only that.
import { OPENAI_BASE_URL } from "./base-urls.ts";
import { modelInfo } from "./models.ts";

/** `auto` applies the rule below; the others force one wire. */
export type OpenAIApi = "responses" | "chat" | "auto";

export const OPENAI_API_VARIABLE = "ZOT_OPENAI_API";

export function isOpenAIApi(value: unknown): value is OpenAIApi {
  return value === "responses" || value === "chat" || value === "auto";
}

/** The wire forced by `ZOT_OPENAI_API`, else `auto`. */
export function openaiApiFromEnv(env: Record<string, string | undefined> = process.env): OpenAIApi {
  const value = env[OPENAI_API_VARIABLE]?.trim().toLowerCase();
  return isOpenAIApi(value) ? value : "auto";
}

export function usesResponses(api: OpenAIApi, model: string, baseUrl: string, providerName: string): boolean {
  if (api !== "auto") return api === "responses";
  if (providerName !== "openai" || baseUrl.replace(/\/+$/, "") !== OPENAI_BASE_URL) return false;
  return model.includes("codex") || modelInfo("openai", model).thinking === "effort";
}
