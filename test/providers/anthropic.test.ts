// The Anthropic provider against the scripted model server, over real HTTP.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createProvider } from "../../lib/providers/index.ts";
import type { AssistantMessage, Message } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { baseRequest, collect, PNG_1PX } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

const anthropic = (apiKey?: string) => createProvider({ provider: "anthropic", baseUrl: server.url, apiKey, retry: { maxRetries: 0 } });

describe("text streaming", () => {
  test("text arrives as deltas and the done message holds the whole text", async () => {
    server.push({ text: "Hello there, world" });
    const result = await collect(anthropic(), { model: "claude-haiku-4-5" });
    expect(result.events.filter((e) => e.type === "text_delta").length).toBe(3);
    expect(result.text).toBe("Hello there, world");
    expect(result.done).toMatchObject({
      role: "assistant", stop: "end_turn", provider: "anthropic", model: "claude-haiku-4-5",
      content: [{ type: "text", text: "Hello there, world" }],
    });
    expect(result.done.error).toBeUndefined();
  });

  test("the request carries model, stream flag, system prompt and a cache marker", async () => {
    server.push({ text: "ok" });
    await collect(anthropic(), { model: "claude-haiku-4-5", system: "Be brief." });
    const [request] = server.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/messages");
    expect(request.body).toMatchObject({
      model: "claude-haiku-4-5",
      stream: true,
      max_tokens: 32_000,
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] }],
    });
    expect(request.body.thinking).toBeUndefined();
    expect(request.body.tools).toBeUndefined();
  });

  test("an explicit maxTokens is sent as max_tokens", async () => {
    server.push({ text: "ok" });
    await collect(anthropic(), { maxTokens: 1234 });
    expect(server.requests[0].body.max_tokens).toBe(1234);
  });

  test("the API key is sent as a bearer credential; without one no Authorization header is sent", async () => {
    server.push({ text: "a" }, { text: "b" });
    await collect(anthropic("sk-ant-test"));
    await collect(anthropic());
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-ant-test");
    expect(server.requests[1].headers.authorization).toBeUndefined();
    expect(server.requests[1].headers["x-api-key"]).toBeUndefined();
  });
});

describe("thinking", () => {
  test("a budget model gets extended thinking with the effort's budget, streamed as thinking deltas", async () => {
    server.push({ thinking: "Let me think this through", text: "Answer", signature: "sig-abc" });
    const result = await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "medium" });
    expect(server.requests[0].body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(result.thinking).toBe("Let me think this through");
    expect(result.done.content).toEqual([
      { type: "thinking", thinking: "Let me think this through", signature: "sig-abc" },
      { type: "text", text: "Answer" },
    ]);
  });

  test("the thinking budget stays below a small max_tokens, and is dropped when it cannot fit", async () => {
    server.push({ text: "a" }, { text: "b" });
    await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "high", maxTokens: 4096 });
    await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "high", maxTokens: 1500 });
    expect(server.requests[0].body.thinking).toEqual({ type: "enabled", budget_tokens: 3072 });
    expect(server.requests[1].body.thinking).toBeUndefined();
  });

  test("an adaptive model gets adaptive thinking with the effort in output_config", async () => {
    server.push({ thinking: "hmm", text: "ok" });
    await collect(anthropic(), { model: "claude-sonnet-5-5", reasoning: "high" });
    expect(server.requests[0].body.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(server.requests[0].body.output_config).toEqual({ effort: "high" });
  });

  test("signed and redacted thinking round-trip unchanged in the next request", async () => {
    server.push({ redacted_thinking: "ENCRYPTED", thinking: "step one", signature: "sig-1", tool_calls: [{ id: "toolu_a", name: "bash", args: { cmd: "ls" } }] });
    const first = await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "low" });
    expect(first.done.content[0]).toEqual({ type: "thinking", thinking: "", signature: "ENCRYPTED", redacted: true });

    server.push({ text: "done" });
    const history: Message[] = [
      ...baseRequest().messages,
      first.done,
      { role: "tool_result", tool_id: "toolu_a", tool_name: "bash", content: [{ type: "text", text: "file.txt" }], is_error: false },
    ];
    await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "low", messages: history });
    expect(server.requests[1].body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "redacted_thinking", data: "ENCRYPTED" },
        { type: "thinking", thinking: "step one", signature: "sig-1" },
        { type: "tool_use", id: "toolu_a", name: "bash", input: { cmd: "ls" } },
      ],
    });
  });

  test("thinking from another model or without a signature is not sent back", async () => {
    server.push({ text: "ok" });
    const foreign: AssistantMessage = {
      role: "assistant", stop: "end_turn", provider: "anthropic", model: "claude-opus-4-5",
      content: [{ type: "thinking", thinking: "theirs", signature: "sig-x" }, { type: "text", text: "visible" }],
    };
    const unsigned: AssistantMessage = {
      role: "assistant", stop: "end_turn", provider: "openai", model: "gpt-5",
      content: [{ type: "thinking", thinking: "no signature" }, { type: "text", text: "also visible" }],
    };
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q1" }] }, foreign,
      { role: "user", content: [{ type: "text", text: "q2" }] }, unsigned,
      { role: "user", content: [{ type: "text", text: "q3" }] },
    ];
    await collect(anthropic(), { model: "claude-haiku-4-5", messages });
    const sent = server.requests[0].body.messages;
    expect(sent[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "visible" }] });
    expect(sent[3]).toEqual({ role: "assistant", content: [{ type: "text", text: "also visible" }] });
  });
});

describe("tool calls", () => {
  test("arguments split across input_json deltas are joined and parsed", async () => {
    const args = { path: "src/main.ts", lines: [1, 2, 3], options: { recursive: true } };
    server.push({ text: "Reading.", tool_calls: [{ id: "toolu_1", name: "read", args, chunks: 5 }, { id: "toolu_2", name: "ls" }] });
    const result = await collect(anthropic(), { tools: [{ name: "read", description: "Read a file", schema: { type: "object", properties: { path: { type: "string" } } } }] });
    const argDeltas = result.events.filter((e) => e.type === "tool_call_delta" && e.id === "toolu_1" && e.delta);
    expect(argDeltas.length).toBe(5);
    expect(result.done.stop).toBe("tool_use");
    expect(result.done.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "tool_call", id: "toolu_1", name: "read", args },
      { type: "tool_call", id: "toolu_2", name: "ls", args: {} },
    ]);
    expect(server.requests[0].body.tools).toEqual([
      { name: "read", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } },
    ]);
  });

  test("arguments that are not a JSON object are kept raw with empty args", async () => {
    server.push({ tool_calls: [{ id: "toolu_9", name: "edit", args_raw: "{\"path\": \"a.ts\", oops" }] });
    const result = await collect(anthropic());
    expect(result.done.content).toEqual([{ type: "tool_call", id: "toolu_9", name: "edit", args: {}, args_raw: "{\"path\": \"a.ts\", oops" }]);
  });

  test("tool results share one user turn, images travel as base64 blocks inside tool_result", async () => {
    server.push({ text: "I see a pixel." });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "screenshot and list" }] },
      { role: "assistant", stop: "tool_use", content: [
        { type: "tool_call", id: "t1", name: "screenshot", args: {} },
        { type: "tool_call", id: "t2", name: "ls", args: { dir: "." } },
      ] },
      { role: "tool_result", tool_id: "t1", tool_name: "screenshot", is_error: false, content: [
        { type: "text", text: "captured" }, { type: "image", mime_type: "image/png", data: PNG_1PX },
      ] },
      { role: "tool_result", tool_id: "t2", tool_name: "ls", is_error: true, content: [{ type: "text", text: "permission denied" }] },
      { role: "user", content: [{ type: "text", text: "what now?" }] },
    ];
    await collect(anthropic(), { messages });
    expect(server.requests[0].body.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: [
          { type: "text", text: "captured" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_1PX } },
        ] },
        { type: "tool_result", tool_use_id: "t2", is_error: true, content: [{ type: "text", text: "permission denied" }] },
        { type: "text", text: "what now?", cache_control: { type: "ephemeral" } },
      ],
    });
  });
});

describe("usage, cost and stop reasons", () => {
  test("usage counts cache reads and writes and is priced at the model's rates", async () => {
    server.push({ text: "ok", usage: { input: 1000, output: 500, cache_read: 2000, cache_write: 300 } });
    const result = await collect(anthropic(), { model: "claude-haiku-4-5" });
    // haiku-4-5: $1 in, $5 out, $0.10 cache read, $1.25 cache write per million tokens.
    const expected = (1000 * 1 + 500 * 5 + 2000 * 0.1 + 300 * 1.25) / 1_000_000;
    expect(result.done.usage).toEqual({ input: 1000, output: 500, cache_read: 2000, cache_write: 300, cost_usd: expect.closeTo(expected, 12) });
  });

  test("an unknown model id works and costs nothing", async () => {
    server.push({ text: "ok", usage: { input: 1000, output: 500 } });
    const result = await collect(anthropic(), { model: "claude-from-the-future" });
    expect(result.done.usage).toMatchObject({ input: 1000, output: 500, cost_usd: 0 });
    expect(server.requests[0].body.model).toBe("claude-from-the-future");
  });

  test("max_tokens stops with length, as on every provider; a refusal ends as an error with a reason", async () => {
    server.push({ text: "cut", stop: "max_tokens" }, { text: "no", stop: "refusal" });
    const cut = await collect(anthropic());
    const refused = await collect(anthropic());
    expect(cut.done.stop).toBe("length");
    expect(refused.done.stop).toBe("error");
    expect(refused.done.error).toMatch(/refus/);
  });

  test("a turn can answer from what the model was sent", async () => {
    server.push((request) => ({ text: `you said: ${request.body.messages.at(-1).content[0].text}` }));
    const result = await collect(anthropic(), { messages: [{ role: "user", content: [{ type: "text", text: "ping" }] }] });
    expect(result.text).toBe("you said: ping");
  });
});
