// A cloud's own model list (`GET {base}/models`, OpenAI's list format), cached under
// `$ZOT_HOME/cache/models/` for 6 hours so `--list-models` does not ask on every call.
// Plain fetch: listing models loads no SDK.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const LIVE_MODELS_TTL_MS = 6 * 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 15_000;

export interface LiveModel {
  id: string;
  context_window?: number;
  /** The server marks the model deprecated (its date or note, or `true`). */
  deprecated?: string | true;
}

interface CacheFile { fetched_at: number; base_url: string; models: LiveModel[] }

export interface LiveModelsOptions {
  provider: string;
  baseUrl: string;
  apiKey?: string;
  /** How the key is sent: OpenAI's bearer token (the default), Anthropic's `x-api-key`, Gemini's `x-goog-api-key`. */
  keyHeader?: "bearer" | "x-api-key" | "x-goog-api-key";
  /** `$ZOT_HOME`; without it nothing is cached. */
  home?: string;
  now?: number;
}

/** The provider's models, from the cache when it is younger than 6 hours and for the same URL. */
export async function liveModels(options: LiveModelsOptions): Promise<LiveModel[]> {
  const now = options.now ?? Date.now();
  const base = options.baseUrl.replace(/\/+$/, "");
  const file = options.home ? join(options.home, "cache", "models", `${options.provider.replace(/[^A-Za-z0-9._-]/g, "_")}.json`) : undefined;
  const cached = file ? await readCache(file) : undefined;
  if (cached && cached.base_url === base && now - cached.fetched_at >= 0 && now - cached.fetched_at < LIVE_MODELS_TTL_MS) return cached.models;
  const models = await fetchModels(base, options.apiKey, options.keyHeader ?? "bearer");
  if (file) await writeCache(file, { fetched_at: now, base_url: base, models }).catch(() => {}); // a cache is optional
  return models;
}

async function fetchModels(base: string, apiKey: string | undefined, keyHeader: NonNullable<LiveModelsOptions["keyHeader"]>): Promise<LiveModel[]> {
  const auth: Record<string, string> = !apiKey ? {}
    : keyHeader === "bearer" ? { authorization: `Bearer ${apiKey}` }
      : keyHeader === "x-goog-api-key" ? { "x-goog-api-key": apiKey } : { "x-api-key": apiKey, "anthropic-version": "2023-06-01" };
  const url = `${base}/models`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json", ...auth },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`could not reach ${url}: ${(err as Error).message}`);
  }
  // The body is not shown: a server may echo the key.
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const body = await response.json().catch(() => undefined) as { data?: unknown; models?: unknown } | undefined;
  // Gemini lists `models` named `models/<id>` with an input token limit.
  if (body && Array.isArray(body.models)) {
    return body.models.flatMap((entry): LiveModel[] => {
      const m = entry as Record<string, unknown>;
      const id = typeof m.name === "string" ? m.name.replace(/^models\//, "") : "";
      const context = typeof m.inputTokenLimit === "number" && m.inputTokenLimit > 0 ? { context_window: m.inputTokenLimit } : {};
      return id ? [{ id, ...context }] : [];
    });
  }
  if (!body || !Array.isArray(body.data)) throw new Error(`${url} did not answer with a model list`);
  return body.data.flatMap((entry): LiveModel[] => {
    const m = entry as Record<string, unknown>;
    if (typeof m.id !== "string" || m.id === "") return [];
    const context = [m.context_length, m.context_window, m.max_context_length].find((n) => typeof n === "number" && n > 0) as number | undefined;
    const deprecated = deprecation(m);
    return [{ id: m.id, ...(context ? { context_window: context } : {}), ...(deprecated ? { deprecated } : {}) }];
  });
}

/** The fields servers mark a retiring model with (`deprecated`, `deprecation_date`, `status`). */
function deprecation(m: Record<string, unknown>): string | true | undefined {
  if (typeof m.deprecation_date === "string" && m.deprecation_date) return m.deprecation_date;
  if (typeof m.deprecated === "string" && m.deprecated) return m.deprecated;
  if (m.deprecated === true || m.status === "deprecated") return true;
  return undefined;
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    const data = JSON.parse(await readFile(file, "utf8")) as CacheFile;
    return typeof data.fetched_at === "number" && typeof data.base_url === "string" && Array.isArray(data.models) ? data : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, data: CacheFile): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(data));
  await rename(temp, file);
}
