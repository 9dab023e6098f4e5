// `zot --list-models [--provider P]`: the known models with context and prices; for Ollama, the
// models its server has pulled (any of them may be given to --model).
import { resolveModelSettings } from "../app/settings.ts";
import { DEFAULT_BASE_URLS, listModels } from "../providers/index.ts";
import { ollamaModels } from "../providers/ollama.ts";

export async function listModelsText(options: { provider?: string; baseUrl?: string }, env: Record<string, string | undefined>): Promise<string> {
  if ((options.provider ?? env.ZOT_PROVIDER) === "ollama") {
    const { baseUrl } = resolveModelSettings({ provider: "ollama", baseUrl: options.baseUrl }, env, {});
    const names = await ollamaModels(baseUrl ?? DEFAULT_BASE_URLS.ollama);
    return names.map((name) => `ollama/${name}\n`).join("");
  }
  return listModels(options.provider).map((m) => {
    const deprecated = m.deprecated ? `\tdeprecated (end of life ${m.deprecated})` : "";
    return `${m.provider}/${m.id}\tcontext ${m.context_window}\t$${m.cost.input}/$${m.cost.output} per Mtok${deprecated}\n`;
  }).join("");
}
