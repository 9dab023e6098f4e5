// `$ZOT_HOME/models.json`: the user's own models, or corrections to the known ones, per provider:
//   {"openai": {"my-finetune": {"context_window": 200000, "cost": {"input": 1, "output": 4}, "reasoning": true}}}
// Fields: context_window, max_output, cost {input, output, cache_read, cache_write} (USD per million
// tokens) and reasoning (true, false, or "budget" | "adaptive" | "effort"). A field it cannot read
// is left out with a warning naming the file, the model and the field; a missing file is no models.
import { readFileSync } from "node:fs";
import type { ModelInfo } from "./types.ts";

/** What the file says of one model; fields it does not give keep the known model's values. */
export interface UserModel {
  provider: string;
  id: string;
  context_window?: number;
  max_output?: number;
  cost?: Partial<ModelInfo["cost"]>;
  /** null: the model does not reason. */
  thinking?: ModelInfo["thinking"] | null;
}

const THINKING = ["budget", "adaptive", "effort"] as const;
const COSTS = ["input", "output", "cache_read", "cache_write"] as const;

export function readUserModels(path: string, warn: (message: string) => void): UserModel[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    warn(`${path}: invalid JSON (${(err as Error).message}); its models are ignored`);
    return [];
  }
  if (!isObject(data)) {
    warn(`${path}: expected {"provider": {"model id": {…}}}; its models are ignored`);
    return [];
  }
  const models: UserModel[] = [];
  for (const [provider, entries] of Object.entries(data)) {
    if (!isObject(entries)) {
      warn(`${path}: ${provider}: expected an object of model ids; ignored`);
      continue;
    }
    for (const [id, fields] of Object.entries(entries)) {
      if (!isObject(fields)) {
        warn(`${path}: ${provider}/${id}: expected an object of fields; ignored`);
        continue;
      }
      models.push(userModel(provider, id, fields, (field) => warn(`${path}: ${provider}/${id}: ${field}; it is ignored`)));
    }
  }
  return models;
}

function userModel(provider: string, id: string, fields: Record<string, unknown>, bad: (what: string) => void): UserModel {
  const model: UserModel = { provider, id };
  const count = (name: "context_window" | "max_output") => {
    const value = fields[name];
    if (value === undefined) return;
    if (typeof value === "number" && Number.isInteger(value) && value > 0) model[name] = value;
    else bad(`${name} must be a positive whole number, not ${JSON.stringify(value)}`);
  };
  count("context_window");
  count("max_output");
  if (fields.cost !== undefined) {
    if (!isObject(fields.cost)) bad(`cost must be an object of USD per million tokens`);
    else {
      const cost: Partial<ModelInfo["cost"]> = {};
      for (const [key, value] of Object.entries(fields.cost)) {
        if (!(COSTS as readonly string[]).includes(key)) bad(`cost.${key} is not a price (${COSTS.join(", ")})`);
        else if (typeof value !== "number" || !(value >= 0)) bad(`cost.${key} must be a number of USD per million tokens, not ${JSON.stringify(value)}`);
        else cost[key as (typeof COSTS)[number]] = value;
      }
      model.cost = cost;
    }
  }
  const reasoning = fields.reasoning;
  if (reasoning === true) model.thinking = provider === "anthropic" ? "budget" : "effort";
  else if (reasoning === false) model.thinking = null;
  else if (typeof reasoning === "string" && (THINKING as readonly string[]).includes(reasoning)) model.thinking = reasoning as ModelInfo["thinking"];
  else if (reasoning !== undefined) bad(`reasoning must be true, false, or one of ${THINKING.join(", ")}, not ${JSON.stringify(reasoning)}`);
  for (const key of Object.keys(fields)) {
    if (!["context_window", "max_output", "cost", "reasoning"].includes(key)) bad(`"${key}" is not a field (context_window, max_output, cost, reasoning)`);
  }
  return model;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
