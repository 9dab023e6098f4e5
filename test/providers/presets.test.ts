// Every OpenAI-compatible cloud preset over real HTTP against the scripted model server (its
// OpenAI wire under /v1): text, a tool round trip, a 429 with retry-after, the base URL
// override, its key variables, and the tables that derive from the preset table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { logIn } from "../../lib/app/login.ts";
import {
  API_KEY_ENV, API_KEY_ENVS, CLOUD_PRESETS, createProvider, DEFAULT_BASE_URLS, DEFAULT_MODELS, findModel, isProviderName,
  listModels, missingKeyMessage, PROVIDER_NAMES, resolveApiKey, usageFor, type PresetName,
} from "../../lib/providers/index.ts";
import { keyCheckUrl } from "../../lib/providers/key-check.ts";
import { PRESET_NAMES } from "../../lib/providers/presets.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect, FAST_RETRY } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

describe.each(PRESET_NAMES)("%s", (name: PresetName) => {
  const preset = CLOUD_PRESETS[name];
  const open = (retry = { maxRetries: 0 }) => createProvider({ provider: name, apiKey: "sk-cloud", baseUrl: `${server.url}/v1`, retry });

  test("streams text under its own name with a bearer key, at the base URL override", async () => {
    server.push({ text: "hello from the cloud", usage: { input: 100, output: 10 } });
    const result = await collect(open(), { model: preset.defaultModel });
    expect(result.done).toMatchObject({ stop: "end_turn", provider: name, model: preset.defaultModel,
      content: [{ type: "text", text: "hello from the cloud" }] });
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe("Bearer sk-cloud");
    expect(request!.body.model).toBe(preset.defaultModel);
    // Its usage is priced from its own catalogue (0 where no price was published).
    const info = findModel(name, preset.defaultModel)!;
    expect(usageFor(name, preset.defaultModel, { input: 1_000_000, output: 0, cache_read: 0, cache_write: 0 }).cost_usd).toBeCloseTo(info.cost.input);
  });

  test("a tool round trip: the call comes back, and its result is sent as a tool message", async () => {
    server.push({ tool_calls: [{ id: "call_1", name: "read", args: { path: "a.txt" } }] }, { text: "done" });
    const tools = [{ name: "read", description: "read a file", schema: { type: "object", properties: { path: { type: "string" } } } }];
    const provider = open();
    const first = await collect(provider, { model: preset.defaultModel, tools });
    expect(first.done.stop).toBe("tool_use");
    expect(first.done.content).toEqual([{ type: "tool_call", id: "call_1", name: "read", args: { path: "a.txt" } }]);
    const second = await collect(provider, {
      model: preset.defaultModel, tools,
      messages: [
        { role: "user", content: [{ type: "text", text: "read a.txt" }] },
        first.done,
        { role: "tool_result", tool_id: "call_1", tool_name: "read", content: [{ type: "text", text: "contents" }], is_error: false },
      ],
    });
    expect(second.text).toBe("done");
    const body = server.requests[1]!.body;
    expect(body.tools.map((t: any) => t.function.name)).toEqual(["read"]);
    expect(body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "contents" });
  });

  test("a 429 is retried after the server's retry-after", async () => {
    server.push({ type: "error", status: 429, retry_after: "0.02", message: "slow down" }, { text: "ok" });
    const result = await collect(open(FAST_RETRY), { model: preset.defaultModel });
    expect(result.text).toBe("ok");
    expect(result.retries.map((r) => [r.status, r.delayMs])).toEqual([[429, 20]]);
    expect(server.requests).toHaveLength(2);
  });

  test("derives its name, base URL, key variables, default model and known models from the preset", () => {
    expect(isProviderName(name)).toBe(true);
    expect(PROVIDER_NAMES).toContain(name);
    expect(DEFAULT_BASE_URLS[name]).toBe(preset.baseUrl);
    expect(API_KEY_ENVS[name]).toEqual(preset.keyEnv);
    expect(DEFAULT_MODELS[name]).toBe(preset.defaultModel);
    expect(listModels(name).map((m) => m.id)).toEqual(preset.models.map((row) => row[0]));
    expect(listModels(name).map((m) => m.id)).toContain(preset.defaultModel);
    expect(keyCheckUrl(name)).toBe(`${preset.baseUrl}${"keyCheckPath" in preset ? preset.keyCheckPath : "/models"}`);
  });

  test("its key comes from its variable(s), and without one the run is refused naming them", () => {
    for (const variable of preset.keyEnv) {
      expect(resolveApiKey({ provider: name, env: { [variable]: " sk-env " } })).toEqual({ key: "sk-env", source: "env", variable });
    }
    expect(resolveApiKey({ provider: name, env: { OPENAI_API_KEY: "sk-other" } })).toBeUndefined();
    expect(() => createProvider({ provider: name })).toThrow(`set ${preset.keyEnv.join(" or ")}, or pass --api-key`);
    expect(missingKeyMessage(name, preset.baseUrl)).not.toContain("needs no key");
  });
});

describe("cloud keys", () => {
  test("kimi reads KIMI_API_KEY before MOONSHOT_API_KEY", () => {
    expect(API_KEY_ENV.kimi).toBe("KIMI_API_KEY");
    expect(resolveApiKey({ provider: "kimi", env: { KIMI_API_KEY: "sk-kimi", MOONSHOT_API_KEY: "sk-moon" } })?.key).toBe("sk-kimi");
    expect(resolveApiKey({ provider: "kimi", env: { KIMI_API_KEY: " ", MOONSHOT_API_KEY: "sk-moon" } })).toMatchObject({ key: "sk-moon", variable: "MOONSHOT_API_KEY" });
  });

  test("zot login checks a groq key with GET {base}/models and a bearer token", async () => {
    server.acceptKeys = ["gsk-good"];
    const dir = mkdtempSync(join(tmpdir(), "zot-preset-auth-"));
    const authFile = join(dir, "auth.json");
    const refused = await logIn({ provider: "groq", key: "gsk-bad", baseUrl: `${server.url}/v1`, authFile, env: {} });
    expect(refused).toEqual({ ok: false, message: expect.stringMatching(/^groq refused the key \(HTTP 401: .*\); nothing was saved$/) });
    const accepted = await logIn({ provider: "groq", key: "gsk-good", baseUrl: `${server.url}/v1`, authFile, env: { GROQ_API_KEY: "x" } });
    expect(accepted.ok).toBe(true);
    expect(accepted.message).toContain("GROQ_API_KEY is set in the environment");
    expect(server.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["GET", "/v1/models", "Bearer gsk-bad"], ["GET", "/v1/models", "Bearer gsk-good"],
    ]);
    expect(resolveApiKey({ provider: "groq", env: {}, authFile })).toEqual({ key: "gsk-good", source: "auth_file" });
    rmSync(dir, { recursive: true, force: true });
  });
});
