// $ZOT_HOME/models.json: the user's models and corrections to the known ones.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findModel, listModels, modelInfo, useUserModels } from "../../lib/providers/models.ts";
import { readUserModels } from "../../lib/providers/user-models.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-models-"));
const file = join(dir, "models.json");
afterEach(() => useUserModels([]));
afterEach(() => rmSync(file, { force: true }));

function load(data: unknown): string[] {
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  const warnings: string[] = [];
  useUserModels(readUserModels(file, (m) => warnings.push(m)));
  return warnings;
}

describe("models.json", () => {
  it("adds a model to a provider's list, with what it says and defaults for the rest", () => {
    expect(load({ openai: { "my-finetune": { context_window: 200_000, cost: { input: 1, output: 4 }, reasoning: true } } })).toEqual([]);
    expect(findModel("openai", "my-finetune")).toEqual({ provider: "openai", id: "my-finetune", context_window: 200_000,
      cost: { input: 1, output: 4, cache_read: 0, cache_write: 0 }, thinking: "effort" });
    expect(listModels("openai").at(-1)!.id).toBe("my-finetune");
  });

  it("corrects a known model field by field, and reasoning false takes its reasoning away", () => {
    const before = findModel("anthropic", "claude-sonnet-4-6")!;
    load({ anthropic: { "claude-sonnet-4-6": { cost: { input: 2 }, reasoning: false } } });
    const after = findModel("anthropic", "claude-sonnet-4-6")!;
    expect(after.cost).toEqual({ ...before.cost, input: 2 });
    expect(after.context_window).toBe(before.context_window);
    expect(after.thinking).toBeUndefined();
    // Taking the file away (an empty list) gives the known values back.
    useUserModels([]);
    expect(findModel("anthropic", "claude-sonnet-4-6")).toEqual(before);
  });

  it("a field it cannot read is left out with a warning naming the file, the model and the field; the rest applies", () => {
    const warnings = load({ openai: { odd: { context_window: -5, cost: { input: "cheap", output: 3 }, speed: 9, reasoning: "lots" } } });
    expect(warnings).toEqual([
      `${file}: openai/odd: context_window must be a positive whole number, not -5; it is ignored`,
      `${file}: openai/odd: cost.input must be a number of USD per million tokens, not "cheap"; it is ignored`,
      `${file}: openai/odd: reasoning must be true, false, or one of budget, adaptive, effort, not "lots"; it is ignored`,
      `${file}: openai/odd: "speed" is not a field (context_window, max_output, cost, reasoning); it is ignored`,
    ]);
    expect(modelInfo("openai", "odd").cost.output).toBe(3);
  });

  it("a broken or missing file adds nothing", () => {
    expect(load("{ nope")).toEqual([expect.stringMatching(/models\.json: invalid JSON .*; its models are ignored$/)]);
    expect(findModel("openai", "my-finetune")).toBeUndefined();
    rmSync(file, { force: true });
    expect(readUserModels(file, () => { throw new Error("no warning expected"); })).toEqual([]);
  });
});
