// `zot --list-models [--provider P]`: the known models with context and prices; for Ollama, the
// models its server has pulled; for a cloud preset, the known models merged with the cloud's
// own list (cached 6 hours), so any model it offers may be given to --model.
import { resolveModelSettings } from "../app/settings.ts";
import { zotPaths } from "../paths.ts";
import { DEFAULT_BASE_URLS, isPresetName, listModels, resolveApiKey, type ModelInfo, type ProviderName } from "../providers/index.ts";
import { liveModels, type LiveModel } from "../providers/live-models.ts";
import { ollamaModels } from "../providers/ollama.ts";
import { useUserModels } from "../providers/models.ts";
import { readUserModels } from "../providers/user-models.ts";

type Env = Record<string, string | undefined>;

export async function listModelsText(options: { provider?: string; baseUrl?: string; apiKey?: string }, env: Env,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<string> {
  const provider = options.provider ?? env.ZOT_PROVIDER;
  useUserModels(readUserModels(zotPaths(env).models, (m) => warn(`zot: warning: ${m}`)));
  if (provider === "ollama") {
    const { baseUrl } = resolveModelSettings({ provider: "ollama", baseUrl: options.baseUrl }, env, {});
    const names = await ollamaModels(baseUrl ?? DEFAULT_BASE_URLS.ollama);
    return names.map((name) => `ollama/${name}\n`).join("");
  }
  const paths = zotPaths(env);
  // The clouds list their models for anyone (or with the key); Anthropic, OpenAI and Gemini only with a key.
  const keyed = provider === "anthropic" || provider === "openai" || provider === "gemini";
  const key = provider !== undefined && (keyed || isPresetName(provider))
    ? resolveApiKey({ provider: provider as ProviderName, flag: options.apiKey, env, authFile: paths.auth })?.key : undefined;
  if (provider === undefined || !(isPresetName(provider) || (keyed && key))) return listModels(options.provider).map((m) => knownLine(m)).join("");
  const curated = listModels(provider);
  const { baseUrl } = resolveModelSettings({ provider, baseUrl: options.baseUrl }, env, {});
  let live: LiveModel[];
  try {
    const base = baseUrl ?? DEFAULT_BASE_URLS[provider as ProviderName];
    live = await liveModels({
      provider, home: paths.home, ...(key ? { apiKey: key } : {}),
      // Anthropic's list is under /v1 and takes its key as x-api-key.
      ...(provider === "anthropic" ? { baseUrl: `${base.replace(/\/+$/, "")}/v1`, keyHeader: "x-api-key" as const }
        : provider === "gemini" ? { baseUrl: `${base.replace(/\/+$/, "").replace(/\/v1(beta)?$/, "")}/v1beta`, keyHeader: "x-goog-api-key" as const }
          : { baseUrl: base }),
    });
  } catch (err) {
    warn(`zot: ${provider}'s own model list is unavailable (${(err as Error).message}); these are the models zot knows`);
    return curated.map((m) => knownLine(m)).join("");
  }
  const offered = new Map(live.map((m) => [m.id, m]));
  const lines = curated.map((m) => knownLine(m, offered.has(m.id) ? offered.get(m.id) : null));
  const knownIds = new Set(curated.map((m) => m.id));
  for (const m of live) if (!knownIds.has(m.id)) lines.push(liveLine(provider, m));
  return lines.join("");
}

/** `live`: the provider's entry; null when its list lacks the model; undefined when not asked. */
function knownLine(m: ModelInfo, live?: LiveModel | null): string {
  const price = m.cost.input === 0 && m.cost.output === 0 ? "price not known" : `$${m.cost.input}/$${m.cost.output} per Mtok`;
  const deprecated = m.deprecated ? `\tdeprecated (end of life ${m.deprecated})`
    : live?.deprecated ? `\t${deprecatedText(live.deprecated)}`
      : live === null ? "\tnot in the provider's list (retired?)" : "";
  return `${m.provider}/${m.id}\tcontext ${m.context_window}\t${price}${deprecated}\n`;
}

function liveLine(provider: string, m: LiveModel): string {
  const context = m.context_window ? `context ${m.context_window}` : "context not known";
  return `${provider}/${m.id}\t${context}\tprice not known${m.deprecated ? `\t${deprecatedText(m.deprecated)}` : ""}\n`;
}

function deprecatedText(value: string | true): string {
  return value === true ? "deprecated" : `deprecated (${value})`;
}
