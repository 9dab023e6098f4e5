// The parts of logging in below the CLI: the key check against a models list, auth.json writes,
// and the provider that looks its key up at each request. Over real HTTP to the model server.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { removeApiKey, saveApiKey } from "../../lib/providers/auth-store.ts";
import { checkApiKey } from "../../lib/providers/key-check.ts";
import { keyedProvider } from "../../lib/providers/keyed.ts";
import { resolveApiKey } from "../../lib/providers/index.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect } from "./helpers.ts";

let server: ModelServer;
let dir: string;
let authFile: string;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "zot-login-"));
  authFile = join(dir, "auth.json");
  server.acceptKeys = ["sk-good"];
  server.requests.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("checkApiKey asks the provider's models list", () => {
  test("an accepted key is ok; a refused one carries the status and the server's message", async () => {
    expect(await checkApiKey({ provider: "anthropic", key: "sk-good", baseUrl: server.url })).toEqual({ ok: true });
    expect(await checkApiKey({ provider: "openai", key: "sk-bad", baseUrl: `${server.url}/v1` })).toEqual({
      ok: false, kind: "refused", status: 401, message: "invalid_request_error: Incorrect API key provided." });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models", "GET /v1/models"]);
  });

  test("Gemini's key goes in x-goog-api-key to /v1beta/models, and its 400 API_KEY_INVALID counts as refused", async () => {
    expect(await checkApiKey({ provider: "gemini", key: "sk-good", baseUrl: server.url })).toEqual({ ok: true });
    expect(await checkApiKey({ provider: "gemini", key: "AIza-bad", baseUrl: server.url })).toEqual({
      ok: false, kind: "refused", status: 400, message: "API key not valid. Please pass a valid API key." });
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.headers["x-goog-api-key"]}`))
      .toEqual(["GET /v1beta/models sk-good", "GET /v1beta/models AIza-bad"]);
  });

  test("a server that echoes the key never gets it into the message", async () => {
    // A server that repeats the credential it was sent in its error body.
    const echo = createServer((req, res) => res.writeHead(401, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } })));
    await new Promise<void>((ready) => echo.listen(0, "127.0.0.1", ready));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
      const result = await checkApiKey({ provider: "openai", key: "sk-echoed-secret", baseUrl: url });
      expect(result).toEqual({ ok: false, kind: "refused", status: 401, message: "bad key Bearer [the key]" });
    } finally {
      await new Promise((done) => echo.close(done));
    }
  });
});

describe("auth.json writes", () => {
  test("save keeps other entries and makes the file 0600; remove drops only that provider", async () => {
    writeFileSync(authFile, JSON.stringify({ openai: "sk-o" }), { mode: 0o644 });
    await saveApiKey(authFile, "anthropic", "sk-a");
    expect(statSync(authFile).mode & 0o777).toBe(0o600);
    expect(resolveApiKey({ provider: "anthropic", env: {}, authFile })).toEqual({ key: "sk-a", source: "auth_file" });
    expect(resolveApiKey({ provider: "openai", env: {}, authFile })).toEqual({ key: "sk-o", source: "auth_file" });
    expect(await removeApiKey(authFile, "anthropic")).toBe(true);
    expect(await removeApiKey(authFile, "anthropic")).toBe(false);
    expect(JSON.parse(readFileSync(authFile, "utf8"))).toEqual({ openai: "sk-o" });
  });
});

describe("keyedProvider", () => {
  test("without a key for a remote API a request ends as a failed response naming auth.json, and nothing is sent", async () => {
    const provider = keyedProvider({ provider: "anthropic", baseUrl: "https://api.example.invalid", authFile,
      resolveKey: () => resolveApiKey({ provider: "anthropic", env: {}, authFile })?.key });
    expect(provider.needsLogin()).toBe(true);
    const { done } = await collect(provider);
    expect(done.stop).toBe("error");
    expect(done.error).toContain(`zot login`);
    expect(done.error).toContain(authFile);
    expect(done.error).toContain("ANTHROPIC_API_KEY");
  });

  test("a key saved after it was built is used from the next request", async () => {
    server.push({ text: "with key" });
    const provider = keyedProvider({ provider: "anthropic", baseUrl: server.url, authFile,
      resolveKey: () => resolveApiKey({ provider: "anthropic", env: {}, authFile })?.key });
    await saveApiKey(authFile, "anthropic", "sk-later");
    const { text } = await collect(provider);
    expect(text).toBe("with key");
    const sent = server.requests.at(-1)!.headers;
    expect(sent["x-api-key"] ?? sent.authorization?.replace(/^Bearer /, "")).toBe("sk-later");
  });
});
