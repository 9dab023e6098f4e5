// `zot --list-models --provider P` for a cloud preset: the known models merged with the cloud's
// own list (GET {base}/models, cached under $ZOT_HOME for 6 hours), and the known models alone,
// with a one-line note, when that list cannot be had.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { listModelsText } from "../../lib/cli/list-models.ts";
import { LIVE_MODELS_TTL_MS } from "../../lib/providers/live-models.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";

let server: ModelServer;
let home: string;
beforeEach(async () => {
  server = await startModelServer();
  home = mkdtempSync(join(tmpdir(), "zot-list-models-"));
});
afterEach(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

const modelRequests = () => server.requests.filter((r) => r.method === "GET" && r.path === "/v1/models");

describe("--list-models for a cloud preset", () => {
  test("merges the known models with the cloud's own, and a second call within 6 h asks nothing", async () => {
    const notes: string[] = [];
    const env = { ZOT_HOME: home, GROQ_API_KEY: "gsk-listed" };
    const text = await listModelsText({ provider: "groq", baseUrl: `${server.url}/v1` }, env, (line) => notes.push(line));
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("groq/openai/gpt-oss-120b\tcontext 131072\t$0.15/$0.6 per Mtok\tnot in the provider's list (retired?)");
    // The server's own model, unknown to zot, comes after the known ones.
    expect(lines.at(-1)).toBe("groq/gpt-4.1\tcontext not known\tprice not known");
    expect(notes).toEqual([]);
    expect(modelRequests().map((r) => r.headers.authorization)).toEqual(["Bearer gsk-listed"]);
    // The cache file names the URL; the key is not in it.
    const cache = readFileSync(join(home, "cache", "models", "groq.json"), "utf8");
    expect(cache).toContain(`${server.url}/v1`);
    expect(cache).not.toContain("gsk-listed");

    expect(await listModelsText({ provider: "groq", baseUrl: `${server.url}/v1` }, env)).toBe(text);
    expect(modelRequests()).toHaveLength(1);
  });

  test("a cache older than 6 hours, or for another URL, is fetched again", async () => {
    const env = { ZOT_HOME: home, XAI_API_KEY: "xai-key" };
    await listModelsText({ provider: "xai", baseUrl: `${server.url}/v1` }, env);
    const file = join(home, "cache", "models", "xai.json");
    const stale = JSON.parse(readFileSync(file, "utf8"));
    stale.fetched_at -= LIVE_MODELS_TTL_MS + 1;
    writeFileSync(file, JSON.stringify(stale));
    await listModelsText({ provider: "xai", baseUrl: `${server.url}/v1` }, env);
    expect(modelRequests()).toHaveLength(2);
    await listModelsText({ provider: "xai", baseUrl: `${server.url}/v1/` }, env); // the same URL
    expect(modelRequests()).toHaveLength(2);
  });

  test("the server's deprecation marks and context windows are shown", async () => {
    mkdirSync(join(home, "cache", "models"), { recursive: true });
    writeFileSync(join(home, "cache", "models", "deepseek.json"), JSON.stringify({
      fetched_at: Date.now(), base_url: `${server.url}/v1`,
      models: [{ id: "deepseek-chat" }, { id: "deepseek-reasoner", deprecated: "2027-01-01" }, { id: "deepseek-v9", context_window: 1000000, deprecated: true }],
    }));
    const text = await listModelsText({ provider: "deepseek", baseUrl: `${server.url}/v1` }, { ZOT_HOME: home });
    expect(text).toBe([
      "deepseek/deepseek-chat\tcontext 64000\t$0.27/$1.1 per Mtok",
      "deepseek/deepseek-reasoner\tcontext 64000\t$0.55/$2.19 per Mtok\tdeprecated (2027-01-01)",
      "deepseek/deepseek-v9\tcontext 1000000\tprice not known\tdeprecated",
      "",
    ].join("\n"));
    expect(server.requests).toHaveLength(0);
  });

  test("a failed fetch prints the known models and one line on stderr", async () => {
    server.acceptKeys = ["the-right-key"];
    const notes: string[] = [];
    const text = await listModelsText({ provider: "kimi", baseUrl: `${server.url}/v1`, apiKey: "sk-wrong-secret" }, { ZOT_HOME: home }, (line) => notes.push(line));
    expect(text).toBe("kimi/kimi-k3\tcontext 1048576\tprice not known\nkimi/kimi-k2.6\tcontext 262144\tprice not known\n");
    expect(notes).toEqual([`zot: kimi's own model list is unavailable (${server.url}/v1/models answered HTTP 401); these are the models zot knows`]);
    expect(notes.join("")).not.toContain("sk-wrong-secret");
  });

  test("other providers list the known models without asking anyone", async () => {
    const text = await listModelsText({ provider: "openai" }, { ZOT_HOME: home });
    expect(text.split("\n")[0]).toMatch(/^openai\/gpt-5\.4\tcontext 400000\t\$2\.5\/\$15 per Mtok$/);
    const all = await listModelsText({}, { ZOT_HOME: home });
    expect(all).toContain("kimi/kimi-k3\t");
    expect(all).toContain("anthropic/claude-sonnet-5-5\t");
    expect(server.requests).toHaveLength(0);
  });
});

describe("--list-models for Anthropic, OpenAI and Gemini", () => {
  test("with a key, the known models are merged with the provider's own list (Anthropic's under /v1 with x-api-key)", async () => {
    const env = { ZOT_HOME: home, ANTHROPIC_API_KEY: "sk-ant-listed" };
    const lines = (await listModelsText({ provider: "anthropic", baseUrl: server.url }, env, () => undefined)).trimEnd().split("\n");
    expect(lines).toContain("anthropic/claude-sonnet-4-6\tcontext 1000000\t$3/$15 per Mtok");
    expect(lines.find((l) => l.startsWith("anthropic/claude-opus-5-5\t"))).toMatch(/not in the provider's list/);
    expect(modelRequests().map((r) => r.headers["x-api-key"])).toEqual(["sk-ant-listed"]);
  });

  test("Gemini's list is read from /v1beta/models with x-goog-api-key", async () => {
    const env = { ZOT_HOME: home, GEMINI_API_KEY: "g-listed" };
    const lines = (await listModelsText({ provider: "gemini", baseUrl: server.url }, env, () => undefined)).trimEnd().split("\n");
    expect(lines.find((l) => l.startsWith("gemini/gemini-3.8-flash\t"))).not.toMatch(/not in the provider's list/);
    expect(lines.find((l) => l.startsWith("gemini/gemini-3.5-flash\t"))).toMatch(/not in the provider's list/);
    const asked = server.requests.filter((r) => r.method === "GET" && r.path === "/v1beta/models");
    expect(asked.map((r) => r.headers["x-goog-api-key"])).toEqual(["g-listed"]);
  });

  test("without a key they are the known models alone, and nothing is asked", async () => {
    const text = await listModelsText({ provider: "openai", baseUrl: `${server.url}/v1` }, { ZOT_HOME: home }, () => undefined);
    expect(text).toContain("openai/gpt-5.4\t");
    expect(text).not.toMatch(/not in the provider's list/);
    expect(modelRequests()).toEqual([]);
  });
});
