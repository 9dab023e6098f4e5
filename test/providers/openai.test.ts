// The OpenAI (Chat Completions) provider against the scripted model server, over real HTTP.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createProvider } from "../../lib/providers/index.ts";
import type { Message } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect, PNG_1PX } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

const openai = (apiKey?: string) => createProvider({ provider: "openai", baseUrl: `${server.url}/v1`, apiKey, retry: { maxRetries: 0 } });

describe("text streaming", () => {
  test("content deltas stream as text and the done message holds the whole text", async () => {
    server.push({ text: "Hello from a compatible server" });
    const result = await collect(openai(), { model: "gpt-4.1" });
    expect(result.events.filter((e) => e.type === "text_delta").length).toBe(5);
    expect(result.done).toMatchObject({
      role: "assistant", stop: "end_turn", provider: "openai", model: "gpt-4.1",
      content: [{ type: "text", text: "Hello from a compatible server" }],
    });
  });

  test("the request has a system message, plain string user content and asks for usage", async () => {
    server.push({ text: "ok" });
    await collect(openai(), { model: "llama3.2", system: "Be brief." });
    const [request] = server.requests;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.body).toEqual({
      model: "llama3.2",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hello" }],
    });
  });

  test("maxTokens is max_tokens for a compatible server", async () => {
    server.push({ text: "ok" });
    await collect(openai(), { maxTokens: 777 });
    expect(server.requests[0].body.max_tokens).toBe(777);
    expect(server.requests[0].body.max_completion_tokens).toBeUndefined();
  });

  test("the API key is a bearer credential; a keyless local server gets no Authorization header", async () => {
    server.push({ text: "a" }, { text: "b" });
    await collect(openai("sk-test"));
    await collect(openai());
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-test");
    expect(server.requests[1].headers.authorization).toBeUndefined();
  });
});

describe("reasoning", () => {
  test.each(["reasoning_content", "reasoning"] as const)("%s deltas become thinking", async (field) => {
    server.push({ thinking: "First, consider the input", text: "Done", reasoning_field: field });
    const result = await collect(openai(), { reasoning: "high" });
    expect(result.thinking).toBe("First, consider the input");
    expect(result.done.content).toEqual([
      { type: "thinking", thinking: "First, consider the input" },
      { type: "text", text: "Done" },
    ]);
    expect(server.requests[0].body.reasoning_effort).toBe("high");
  });

  test("no reasoning_effort is sent when no reasoning is asked for", async () => {
    server.push({ text: "ok" });
    await collect(openai());
    expect(server.requests[0].body).not.toHaveProperty("reasoning_effort");
  });
});

describe("tool calls", () => {
  test("argument deltas are joined per index, for several calls in one response", async () => {
    const first = { path: "README.md", limit: 20 };
    const second = { command: "git status --short", timeout: 5 };
    server.push({ tool_calls: [{ id: "call_a", name: "read", args: first, chunks: 4 }, { id: "call_b", name: "bash", args: second, chunks: 6 }] });
    const result = await collect(openai(), { tools: [{ name: "read", description: "Read a file", schema: { type: "object" } }] });
    expect(result.events.filter((e) => e.type === "tool_call_delta" && e.id === "call_b" && e.delta).length).toBe(6);
    expect(result.done.stop).toBe("tool_use");
    expect(result.done.content).toEqual([
      { type: "tool_call", id: "call_a", name: "read", args: first },
      { type: "tool_call", id: "call_b", name: "bash", args: second },
    ]);
    expect(server.requests[0].body.tools).toEqual([
      { type: "function", function: { name: "read", description: "Read a file", parameters: { type: "object" } } },
    ]);
  });

  test("a server that says stop after tool calls still yields tool_use", async () => {
    server.push({ tool_calls: [{ id: "call_x", name: "ls", args: {} }], stop: "end_turn" });
    const result = await collect(openai());
    expect(result.done.stop).toBe("tool_use");
  });

  test("history: assistant tool calls carry JSON arguments, thinking stays out, results are tool messages", async () => {
    server.push({ text: "ok" });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "list files" }] },
      { role: "assistant", stop: "tool_use", content: [
        { type: "thinking", thinking: "I should list" },
        { type: "text", text: "Listing." },
        { type: "tool_call", id: "call_1", name: "bash", args: { command: "ls" } },
      ] },
      { role: "tool_result", tool_id: "call_1", tool_name: "bash", is_error: false, content: [{ type: "text", text: "a.txt" }] },
    ];
    await collect(openai(), { system: "", messages });
    expect(server.requests[0].body.messages).toEqual([
      { role: "user", content: "list files" },
      { role: "assistant", content: "Listing.", tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: "{\"command\":\"ls\"}" } }] },
      { role: "tool", tool_call_id: "call_1", content: "a.txt" },
    ]);
  });

  test("tool-result images go in one user message after the run of tool messages", async () => {
    server.push({ text: "ok" });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "look" }] },
      { role: "assistant", stop: "tool_use", content: [
        { type: "tool_call", id: "c1", name: "screenshot", args: {} },
        { type: "tool_call", id: "c2", name: "ls", args: {} },
      ] },
      { role: "tool_result", tool_id: "c1", tool_name: "screenshot", is_error: false, content: [
        { type: "text", text: "captured" }, { type: "image", mime_type: "image/png", data: PNG_1PX },
      ] },
      { role: "tool_result", tool_id: "c2", tool_name: "ls", is_error: false, content: [{ type: "text", text: "a.txt" }] },
    ];
    await collect(openai(), { system: "", messages });
    const sent = server.requests[0].body.messages;
    expect(sent.slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "captured\n(1 image attached in the next message)" },
      { role: "tool", tool_call_id: "c2", content: "a.txt" },
      { role: "user", content: [
        { type: "text", text: "Image returned by the screenshot tool:" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
      ] },
    ]);
  });

  test("user images are sent as data-URL image parts", async () => {
    server.push({ text: "ok" });
    await collect(openai(), { system: "", messages: [{ role: "user", content: [
      { type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", data: PNG_1PX },
    ] }] });
    expect(server.requests[0].body.messages[0]).toEqual({ role: "user", content: [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
    ] });
  });
});

describe("usage, cost and stop reasons", () => {
  test("cached prompt tokens are counted as cache reads, not input, and priced", async () => {
    server.push({ text: "ok", usage: { input: 1000, cache_read: 4000, output: 300 } });
    const result = await collect(openai(), { model: "gpt-4.1" });
    // gpt-4.1: $2 in, $8 out, $0.50 cached per million tokens.
    const expected = (1000 * 2 + 300 * 8 + 4000 * 0.5) / 1_000_000;
    expect(result.done.usage).toEqual({ input: 1000, output: 300, cache_read: 4000, cache_write: 0, cost_usd: expect.closeTo(expected, 12) });
  });

  test("a response cut off at its output limit (finish_reason length) stops with length", async () => {
    server.push({ text: "cut off", stop: "max_tokens" });
    const result = await collect(openai());
    expect(result.done.stop).toBe("length");
  });
});
