// The Ollama provider over real HTTP: the scripted model server as an Ollama (its OpenAI-compatible
// chat under /v1 and its /api/tags model list), and a closed port as a stopped server.
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createProvider } from "../../lib/providers/index.ts";
import { ollamaModels } from "../../lib/providers/ollama.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe("ollama", () => {
  test("needs no key, chats under /v1 of the server's root, and names itself the provider", async () => {
    server.push({ text: "hi from llama" });
    const provider = createProvider({ provider: "ollama", baseUrl: server.url, retry: { maxRetries: 0 } });
    const result = await collect(provider, { model: "qwen3:8b" });
    expect(result.done).toMatchObject({ stop: "end_turn", provider: "ollama", model: "qwen3:8b", content: [{ type: "text", text: "hi from llama" }] });
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBeUndefined();
    // A base URL given with /v1 means the same server.
    server.push({ text: "again" });
    await collect(createProvider({ provider: "ollama", baseUrl: `${server.url}/v1/`, retry: { maxRetries: 0 } }));
    expect(server.requests[1]!.path).toBe("/v1/chat/completions");
  });

  test("a stopped server is named with its URL and how to start it", async () => {
    const root = `http://127.0.0.1:${await closedPort()}`;
    const result = await collect(createProvider({ provider: "ollama", baseUrl: root, retry: { maxRetries: 0 } }));
    expect(result.done.stop).toBe("error");
    expect(result.done.error).toMatch(new RegExp(`^no Ollama server answers at ${root}: start it with \`ollama serve\`, or pass --base-url \\(connection refused: nothing listens on 127.0.0.1`));
    await expect(ollamaModels(root)).rejects.toThrow(`no Ollama server answers at ${root}`);
  });

  test("the model list is what the server has pulled", async () => {
    server.ollamaModels = ["llama3.2:latest", "qwen3:8b"];
    expect(await ollamaModels(server.url)).toEqual(["llama3.2:latest", "qwen3:8b"]);
    expect(await ollamaModels(`${server.url}/v1`)).toEqual(["llama3.2:latest", "qwen3:8b"]);
  });
});
