// API key resolution (flag, environment, auth.json) and provider construction errors.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  createProvider, CredentialsError, isLoopbackUrl, ProviderConfigError, resolveApiKey,
} from "../../lib/providers/index.ts";

let dir: string;
let authFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "zot-auth-"));
  authFile = join(dir, "auth.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("resolveApiKey: flag, then environment, then auth.json", () => {
  test("the flag wins over environment and file", () => {
    writeFileSync(authFile, JSON.stringify({ anthropic: { api_key: "from-file" } }));
    expect(resolveApiKey({ provider: "anthropic", flag: "from-flag", env: { ANTHROPIC_API_KEY: "from-env" }, authFile }))
      .toEqual({ key: "from-flag", source: "flag" });
  });

  test("the provider's environment variable wins over the file", () => {
    writeFileSync(authFile, JSON.stringify({ openai: { api_key: "from-file" } }));
    expect(resolveApiKey({ provider: "openai", env: { OPENAI_API_KEY: "from-env", ANTHROPIC_API_KEY: "wrong" }, authFile }))
      .toEqual({ key: "from-env", source: "env", variable: "OPENAI_API_KEY" });
  });

  test("Gemini reads GEMINI_API_KEY, then GOOGLE_API_KEY, before the file", () => {
    writeFileSync(authFile, JSON.stringify({ gemini: "from-file" }));
    expect(resolveApiKey({ provider: "gemini", env: { GEMINI_API_KEY: "gemini-env", GOOGLE_API_KEY: "google-env" }, authFile }))
      .toEqual({ key: "gemini-env", source: "env", variable: "GEMINI_API_KEY" });
    expect(resolveApiKey({ provider: "gemini", env: { GOOGLE_API_KEY: "google-env" }, authFile })).toEqual({ key: "google-env", source: "env", variable: "GOOGLE_API_KEY" });
    expect(resolveApiKey({ provider: "gemini", env: {}, authFile })).toEqual({ key: "from-file", source: "auth_file" });
  });

  test("auth.json accepts {api_key} objects and plain strings per provider", () => {
    writeFileSync(authFile, JSON.stringify({ anthropic: { api_key: "ant-key" }, openai: "oa-key" }));
    expect(resolveApiKey({ provider: "anthropic", env: {}, authFile })).toEqual({ key: "ant-key", source: "auth_file" });
    expect(resolveApiKey({ provider: "openai", env: {}, authFile })).toEqual({ key: "oa-key", source: "auth_file" });
  });

  test("empty values fall through to the next source", () => {
    writeFileSync(authFile, JSON.stringify({ anthropic: "file-key" }));
    expect(resolveApiKey({ provider: "anthropic", flag: "  ", env: { ANTHROPIC_API_KEY: "" }, authFile }))
      .toEqual({ key: "file-key", source: "auth_file" });
  });

  test("no key anywhere, or no auth.json at all, is undefined", () => {
    expect(resolveApiKey({ provider: "anthropic", env: {}, authFile })).toBeUndefined();
    writeFileSync(authFile, JSON.stringify({ openai: "only-openai" }));
    expect(resolveApiKey({ provider: "anthropic", env: {}, authFile })).toBeUndefined();
  });

  test("a malformed auth.json is a clear error naming the file", () => {
    writeFileSync(authFile, "{ not json");
    expect(() => resolveApiKey({ provider: "anthropic", env: {}, authFile })).toThrow(CredentialsError);
    expect(() => resolveApiKey({ provider: "anthropic", env: {}, authFile })).toThrow(authFile);
    writeFileSync(authFile, JSON.stringify({ anthropic: { api_key: 42 } }));
    expect(() => resolveApiKey({ provider: "anthropic", env: {}, authFile })).toThrow(/api_key/);
  });
});

describe("createProvider", () => {
  test("a missing key for a remote API names the environment variable to set", () => {
    expect(() => createProvider({ provider: "anthropic" })).toThrow(ProviderConfigError);
    expect(() => createProvider({ provider: "anthropic" })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => createProvider({ provider: "openai", baseUrl: "https://llm.example.com/v1" })).toThrow(/OPENAI_API_KEY/);
  });

  test("a loopback server needs no key", () => {
    expect(createProvider({ provider: "openai", baseUrl: "http://localhost:11434/v1" }).name).toBe("openai");
    expect(createProvider({ provider: "anthropic", baseUrl: "http://127.0.0.1:9/" }).name).toBe("anthropic");
  });

  test("an unknown provider or malformed base URL is rejected", () => {
    expect(() => createProvider({ provider: "nosuchcloud" as never, apiKey: "k" })).toThrow(/unknown provider "nosuchcloud"/);
    expect(() => createProvider({ provider: "openai", apiKey: "k", baseUrl: "not a url" })).toThrow(/invalid base URL/);
  });
});

test("isLoopbackUrl recognises this machine only", () => {
  for (const url of ["http://localhost:1234", "http://127.0.0.1:8080/v1", "http://127.1.2.3", "http://[::1]:11434/v1", "http://app.localhost"]) {
    expect(isLoopbackUrl(url), url).toBe(true);
  }
  for (const url of ["https://api.openai.com/v1", "http://192.168.1.5:11434", "http://localhost.evil.com", "http://128.0.0.1", "garbage"]) {
    expect(isLoopbackUrl(url), url).toBe(false);
  }
});
