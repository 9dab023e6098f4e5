// One cheap authenticated request that tells whether a provider accepts an API key: its models
// list (Anthropic `GET /v1/models`, OpenAI `GET /models` under the base URL's `/v1`, Gemini
// `GET /v1beta/models` with the key in `x-goog-api-key`). Plain
// fetch, so checking a key loads no SDK; every runtime zot supports has it.
import { DEFAULT_BASE_URLS_BY_NAME } from "./base-urls.ts";
import type { ProviderName } from "./models.ts";
import { CLOUD_PRESETS, isPresetName } from "./presets.ts";

export type KeyCheck =
  | { ok: true }
  /** The server answered, but not with the list: 401/403 refuse the key; others leave it unknown. */
  | { ok: false; kind: "refused" | "http"; status: number; message: string }
  /** No answer at all (DNS, refused connection, TLS, the deadline). */
  | { ok: false; kind: "network"; message: string };

export interface CheckKeyOptions {
  provider: ProviderName;
  key: string;
  /** Defaults to the provider's public API (OpenAI's includes `/v1`). */
  baseUrl?: string;
  /** Deadline for the whole request (default 15 s). */
  timeoutMs?: number;
}

export const KEY_CHECK_TIMEOUT_MS = 15_000;

/** The URL the check requests, for messages. */
export function keyCheckUrl(provider: ProviderName, baseUrl?: string): string {
  const base = (baseUrl?.trim() || DEFAULT_BASE_URLS_BY_NAME[provider]).replace(/\/+$/, "");
  if (provider === "anthropic") return `${base}/v1/models?limit=1`;
  // Ollama's base URL is its root; its OpenAI-compatible routes are under /v1.
  if (provider === "ollama") return `${base.replace(/\/v1$/, "")}/v1/models`;
  if (provider === "gemini") return `${base.replace(/\/v1(beta)?$/, "")}/v1beta/models?pageSize=1`;
  const preset = isPresetName(provider) ? CLOUD_PRESETS[provider] : undefined;
  return `${base}${(preset && "keyCheckPath" in preset ? preset.keyCheckPath : undefined) ?? "/models"}`;
}

export async function checkApiKey(options: CheckKeyOptions): Promise<KeyCheck> {
  const { provider, key } = options;
  const url = keyCheckUrl(provider, options.baseUrl);
  const headers: Record<string, string> = provider === "anthropic"
    ? { "x-api-key": key, "anthropic-version": "2023-06-01" }
    : provider === "gemini" ? { "x-goog-api-key": key } : { authorization: `Bearer ${key}` };
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json", ...headers },
      signal: AbortSignal.timeout(options.timeoutMs ?? KEY_CHECK_TIMEOUT_MS) });
  } catch (err) {
    return { ok: false, kind: "network", message: hideKey(`could not reach ${url}: ${networkCause(err)}`, key) };
  }
  const body = await response.text().catch(() => "");
  if (response.ok) return { ok: true };
  const status = response.status;
  const message = hideKey(serverMessage(body) ?? (response.statusText || "no message"), key);
  return { ok: false, kind: status === 401 || status === 403 || invalidGeminiKey(status, body) ? "refused" : "http", status, message };
}

/** Gemini refuses a bad key with a 400 whose reason is API_KEY_INVALID, not a 401. */
function invalidGeminiKey(status: number, body: string): boolean {
  return status === 400 && /API_KEY_INVALID|API key not valid/.test(body);
}

/** `type: message` from an Anthropic (`{error: {type, message}}`) or OpenAI (`{error: {message}}`) body, else its text. */
function serverMessage(body: string): string | undefined {
  try {
    const data = JSON.parse(body) as { error?: { type?: unknown; message?: unknown } | string; message?: unknown };
    const inner = typeof data.error === "object" && data.error !== null ? data.error : undefined;
    const message = typeof inner?.message === "string" ? inner.message
      : typeof data.error === "string" ? data.error : typeof data.message === "string" ? data.message : undefined;
    if (message !== undefined) return typeof inner?.type === "string" ? `${inner.type}: ${message}` : message;
  } catch {
    // not JSON: the text itself, shortened
  }
  const text = body.replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text.slice(0, 300);
}

function networkCause(err: unknown): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return "no answer in time";
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && e.cause instanceof Error && depth < 5; depth++) e = e.cause;
  return e instanceof Error ? e.message || String(err) : String(err);
}

/** A server may echo what it was sent: the key never reaches the screen. */
function hideKey(text: string, key: string): string {
  return key.length >= 4 ? text.split(key).join("[the key]") : text;
}
