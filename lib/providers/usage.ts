// Token usage arithmetic: pricing a response and summing usage across steps.
import type { ModelInfo, Usage } from "./types.ts";

/** Token counts as a provider reports them, before pricing. */
export type TokenCounts = Omit<Usage, "cost_usd">;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: 0 };
}

/** USD for these tokens at the model's prices (0 for a model without known prices). */
export function costOf(tokens: TokenCounts, model: Pick<ModelInfo, "cost">): number {
  const { cost } = model;
  const usd = tokens.input * cost.input + tokens.output * cost.output +
    tokens.cache_read * cost.cache_read + tokens.cache_write * cost.cache_write;
  return usd / 1_000_000;
}

/** The counts with `cost_usd` filled in. */
export function priceUsage(tokens: TokenCounts, model: Pick<ModelInfo, "cost">): Usage {
  return {
    input: tokens.input,
    output: tokens.output,
    cache_read: tokens.cache_read,
    cache_write: tokens.cache_write,
    cost_usd: costOf(tokens, model),
  };
}

/** The sum of two usages (for cumulative totals); `undefined` counts as zero. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage {
  const x = a ?? emptyUsage();
  const y = b ?? emptyUsage();
  return {
    input: x.input + y.input,
    output: x.output + y.output,
    cache_read: x.cache_read + y.cache_read,
    cache_write: x.cache_write + y.cache_write,
    cost_usd: x.cost_usd + y.cost_usd,
  };
}
