// The model catalogue, usage pricing and the retry-delay rules that need no server.
import { describe, expect, test } from "vitest";
import { parseRetryAfter } from "../../lib/providers/errors.ts";
import {
  addUsage, costOf, DEFAULT_CONTEXT_WINDOW, DEFAULT_MODELS, findModel, listModels, modelInfo, usageFor,
} from "../../lib/providers/index.ts";
import { DEFAULT_RETRY, retryDelay } from "../../lib/providers/retry.ts";

describe("catalogue", () => {
  test("every known model has a positive context window and non-negative prices", () => {
    const models = listModels();
    expect(models.length).toBeGreaterThan(10);
    for (const m of models) {
      expect(m.context_window, m.id).toBeGreaterThan(0);
      for (const price of Object.values(m.cost)) expect(price, m.id).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(models.map((m) => `${m.provider}/${m.id}`)).size).toBe(models.length);
  });

  test("listing by provider returns only that provider, including its default model", () => {
    for (const provider of ["anthropic", "openai"] as const) {
      const models = listModels(provider);
      expect(models.every((m) => m.provider === provider)).toBe(true);
      expect(models.map((m) => m.id)).toContain(DEFAULT_MODELS[provider]);
    }
  });

  test("a dated snapshot id finds its family's entry", () => {
    expect(findModel("anthropic", "claude-haiku-4-5-20251001")).toMatchObject({ id: "claude-haiku-4-5-20251001", cost: { input: 1, output: 5 } });
    expect(findModel("openai", "gpt-4.1-2025-04-14")).toMatchObject({ cost: { input: 2, output: 8 } });
    expect(findModel("openai", "claude-haiku-4-5")).toBeUndefined();
  });

  test("an unknown model is allowed: zero cost and the default context window", () => {
    expect(modelInfo("openai", "qwen2.5-coder:7b")).toEqual({
      provider: "openai", id: "qwen2.5-coder:7b", context_window: DEFAULT_CONTEXT_WINDOW,
      cost: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    });
  });

  test("callers cannot change the catalogue through returned objects", () => {
    listModels("openai")[0].cost.input = 999;
    expect(listModels("openai")[0].cost.input).not.toBe(999);
  });
});

describe("usage and cost", () => {
  test("cost is tokens times price per million, per kind", () => {
    const cost = costOf({ input: 2_000_000, output: 1_000_000, cache_read: 10_000_000, cache_write: 400_000 }, { cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } });
    expect(cost).toBeCloseTo(6 + 15 + 3 + 1.5, 10);
  });

  test("usageFor prices with the catalogue; addUsage sums every field", () => {
    const a = usageFor("openai", "gpt-4o", { input: 1_000_000, output: 0, cache_read: 0, cache_write: 0 });
    expect(a.cost_usd).toBeCloseTo(2.5, 10);
    const b = usageFor("openai", "unknown", { input: 5, output: 6, cache_read: 7, cache_write: 8 });
    expect(addUsage(a, b)).toEqual({ input: 1_000_005, output: 6, cache_read: 7, cache_write: 8, cost_usd: a.cost_usd });
    expect(addUsage(undefined, b)).toEqual(b);
  });
});

describe("retry delays", () => {
  test("backoff doubles from the base and is capped", () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 500 };
    const failure = { message: "x", retryable: true };
    expect([1, 2, 3, 4].map((n) => retryDelay(n, failure, policy))).toEqual([100, 200, 400, 500]);
    expect(retryDelay(1, { ...failure, retryAfterMs: 250 }, policy)).toBe(250);
    expect(retryDelay(1, { ...failure, retryAfterMs: 9_000 }, policy)).toBe(500);
  });

  test("retry-after is read as seconds, an HTTP date, or retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "120", "retry-after": "3" }), now)).toBe(120);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
