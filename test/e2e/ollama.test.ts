// `--provider ollama` end to end: the real bundle against the scripted model server acting as an
// Ollama server (OpenAI-compatible chat under /v1, /api/tags), with no API key anywhere.
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("ollama", () => {
  it("runs a tool round trip with no key, on any model the server has", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo from-ollama" } }], stop: "tool_use" },
      { text: "it printed from-ollama" },
    ], "openai");
    const run = await world.run(["--mode", "json", "--no-session", "--provider", "ollama", "--base-url", world.server.url,
      "--model", "qwen3:8b", "say it"], { env: { ZOT_PROVIDER: "", ZOT_MODEL: "", ZOT_BASE_URL: "" } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: "session", provider: "ollama", model: "qwen3:8b" });
    expect(lines.find((l) => l.type === "tool_result")).toMatchObject({ tool_name: "bash", status: "completed" });
    expect(lines.at(-1)).toMatchObject({ type: "done" });
    expect(world.server.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(world.server.requests[1]!.body.model).toBe("qwen3:8b");
  });

  it("--list-models --provider ollama lists the server's pulled models", async () => {
    world = await makeWorld();
    world.server.ollamaModels = ["llama3.2:latest", "qwen3:8b"];
    const run = await world.run(["--list-models", "--provider", "ollama", "--base-url", world.server.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("ollama/llama3.2:latest\nollama/qwen3:8b\n");
  });
});
