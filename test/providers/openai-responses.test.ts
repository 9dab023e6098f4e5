// The OpenAI provider on the Responses API (reasoning and codex models) against the scripted
// model server, over real HTTP; and the rule that picks Responses or Chat Completions.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createProvider } from "../../lib/providers/index.ts";
import { openaiApiFromEnv, usesResponses } from "../../lib/providers/openai-api.ts";
import type { AssistantMessage, Message } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect, FAST_RETRY, PNG_1PX } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

const responses = (retry = { maxRetries: 0 }) =>
  createProvider({ provider: "openai", baseUrl: `${server.url}/v1`, retry, openaiApi: "responses" });

const hello: Message = { role: "user", content: [{ type: "text", text: "hello" }] };

describe("choosing the wire", () => {
  const api = "https://api.openai.com/v1";
  test("OpenAI's own API: reasoning models and codex models use Responses, others Chat Completions", () => {
    for (const model of ["gpt-5.4", "gpt-5-mini", "o3", "o4-mini", "gpt-5.1-codex", "codex-mini-latest"]) {
      expect(usesResponses("auto", model, api, "openai"), model).toBe(true);
    }
    for (const model of ["gpt-4.1", "gpt-4o", "some-unknown-model"]) expect(usesResponses("auto", model, api, "openai"), model).toBe(false);
    expect(usesResponses("auto", "gpt-5.4", `${api}/`, "openai")).toBe(true);
  });

  test("a compatible server (--base-url) or a cloud preset stays on Chat Completions", () => {
    expect(usesResponses("auto", "gpt-5.4", "http://localhost:11434/v1", "openai")).toBe(false);
    expect(usesResponses("auto", "o3", api, "openrouter")).toBe(false);
  });

  test("responses and chat force one wire; ZOT_OPENAI_API sets it, anything else is auto", () => {
    expect(usesResponses("responses", "llama3.2", "http://localhost:1/v1", "openai")).toBe(true);
    expect(usesResponses("chat", "gpt-5.4", api, "openai")).toBe(false);
    expect(openaiApiFromEnv({ ZOT_OPENAI_API: "Responses" })).toBe("responses");
    expect(openaiApiFromEnv({ ZOT_OPENAI_API: "chat" })).toBe("chat");
    expect(openaiApiFromEnv({ ZOT_OPENAI_API: "bogus" })).toBe("auto");
    expect(openaiApiFromEnv({})).toBe("auto");
  });

  test("auto against a compatible server sends Chat Completions", async () => {
    server.push({ text: "ok" });
    await collect(createProvider({ provider: "openai", baseUrl: `${server.url}/v1`, openaiApi: "auto" }), { model: "gpt-5.4" });
    expect(server.requests[0].path).toBe("/v1/chat/completions");
  });
});

describe("the Responses wire", () => {
  test("text deltas stream and the request carries instructions, input items, store false and the encrypted include", async () => {
    server.push({ text: "Hello from Responses" });
    const result = await collect(responses(), { model: "gpt-5.4", system: "Be brief." });
    expect(result.events.filter((e) => e.type === "text_delta").length).toBe(3);
    expect(result.done).toMatchObject({ stop: "end_turn", provider: "openai", model: "gpt-5.4", content: [{ type: "text", text: "Hello from Responses" }] });
    const [request] = server.requests;
    expect(request.path).toBe("/v1/responses");
    expect(request.body).toEqual({
      model: "gpt-5.4", stream: true, store: false, include: ["reasoning.encrypted_content"], instructions: "Be brief.",
      input: [{ role: "user", content: [{ type: "input_text", text: "hello" }] }],
    });
  });

  test("reasoning summaries become thinking; the encrypted item is kept in the block's signature", async () => {
    server.push({ thinking: "Consider the input first", text: "Done", reasoning_id: "rs_1", encrypted_reasoning: "ENC1" });
    const result = await collect(responses(), { model: "o3", reasoning: "high", maxTokens: 500 });
    expect(result.thinking).toBe("Consider the input first");
    const [thinking, text] = result.done.content;
    expect(thinking).toMatchObject({ type: "thinking", thinking: "Consider the input first" });
    expect(thinking.type === "thinking" && thinking.signature).toContain("ENC1");
    expect(text).toEqual({ type: "text", text: "Done" });
    expect(server.requests[0].body).toMatchObject({ reasoning: { effort: "high", summary: "auto" }, max_output_tokens: 500 });
  });

  test("a tool round trip: function_call items in, function_call_output back, reasoning sent back in order", async () => {
    server.push(
      { thinking: "I should list", reasoning_id: "rs_a", encrypted_reasoning: "ENC-A", tool_calls: [{ id: "call_1", name: "bash", args: { command: "ls" }, chunks: 4 }] },
      { text: "Two files." },
    );
    const tools = [{ name: "bash", description: "Run a command", schema: { type: "object" } }];
    const first = await collect(responses(), { model: "gpt-5.4", tools });
    expect(first.done.stop).toBe("tool_use");
    expect(first.events.filter((e) => e.type === "tool_call_delta" && e.delta).length).toBe(4);
    expect(first.done.content[1]).toEqual({ type: "tool_call", id: "call_1", name: "bash", args: { command: "ls" } });
    expect(server.requests[0].body.tools).toEqual([{ type: "function", name: "bash", description: "Run a command", parameters: { type: "object" }, strict: false }]);

    // Through JSON, as a session file and --resume would carry it.
    const saved = JSON.parse(JSON.stringify(first.done)) as AssistantMessage;
    const messages: Message[] = [hello, saved,
      { role: "tool_result", tool_id: "call_1", tool_name: "bash", is_error: false, content: [{ type: "text", text: "a.txt b.txt" }] }];
    const second = await collect(responses(), { model: "gpt-5.4", tools, messages });
    expect(second.done.content).toEqual([{ type: "text", text: "Two files." }]);
    expect(server.requests[1].body.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "hello" }] },
      { type: "reasoning", id: "rs_a", encrypted_content: "ENC-A", summary: [{ type: "summary_text", text: "I should list" }] },
      { type: "function_call", call_id: "call_1", name: "bash", arguments: "{\"command\":\"ls\"}" },
      { type: "function_call_output", call_id: "call_1", output: "a.txt b.txt" },
    ]);
  });

  test("another provider's thinking is never sent as a reasoning item", async () => {
    server.push({ text: "ok" });
    const messages: Message[] = [hello,
      { role: "assistant", stop: "end_turn", provider: "anthropic", content: [{ type: "thinking", thinking: "x", signature: "sig" }, { type: "text", text: "hi" }] },
      hello];
    await collect(responses(), { messages });
    expect(server.requests[0].body.input[1]).toEqual({ role: "assistant", content: "hi" });
    expect(server.requests[0].body.input).toHaveLength(3);
  });

  test("after a switch of model, the earlier model's reasoning item is left out", async () => {
    server.push({ text: "ok" });
    const messages: Message[] = [hello,
      { role: "assistant", stop: "end_turn", provider: "openai", model: "o3", content: [
        { type: "thinking", thinking: "s", signature: 'openai-reasoning:{"id":"rs_o3","encrypted_content":"E","summary":["s"]}' },
        { type: "text", text: "hi" }] },
      hello];
    await collect(responses(), { model: "gpt-5.4", messages });
    expect(server.requests[0].body.input.map((item: any) => item.type ?? item.role)).toEqual(["user", "assistant", "user"]);
  });

  test("images go as input_image parts in user content and in function outputs", async () => {
    server.push({ text: "ok" });
    const url = `data:image/png;base64,${PNG_1PX}`;
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", data: PNG_1PX }] },
      { role: "assistant", stop: "tool_use", content: [{ type: "tool_call", id: "c1", name: "screenshot", args: {} }] },
      { role: "tool_result", tool_id: "c1", tool_name: "screenshot", is_error: false, content: [
        { type: "text", text: "captured" }, { type: "image", mime_type: "image/png", data: PNG_1PX }] },
    ];
    await collect(responses(), { messages });
    const input = server.requests[0].body.input;
    expect(input[0]).toEqual({ role: "user", content: [{ type: "input_text", text: "what is this?" }, { type: "input_image", image_url: url, detail: "auto" }] });
    expect(input[2]).toEqual({ type: "function_call_output", call_id: "c1", output: [
      { type: "input_text", text: "captured" }, { type: "input_image", image_url: url, detail: "auto" }] });
  });

  test("usage: cached input is a cache read, output includes reasoning tokens, priced", async () => {
    server.push({ text: "ok", usage: { input: 1000, cache_read: 4000, output: 300, reasoning: 200 } });
    const result = await collect(responses(), { model: "gpt-5.4" });
    // gpt-5.4: $2.50 in, $15 out, $0.25 cached per million tokens.
    const expected = (1000 * 2.5 + 300 * 15 + 4000 * 0.25) / 1_000_000;
    expect(result.done.usage).toEqual({ input: 1000, output: 300, cache_read: 4000, cache_write: 0, cost_usd: expect.closeTo(expected, 12) });
  });

  test("an incomplete response (max_output_tokens) stops with length", async () => {
    server.push({ text: "cut off", stop: "max_tokens" });
    expect((await collect(responses())).done.stop).toBe("length");
  });

  test("a 429 with retry-after is retried after the server's wait", async () => {
    server.push({ type: "error", status: 429, retry_after: "0.02", message: "slow down" }, { text: "ok" });
    const result = await collect(responses(FAST_RETRY));
    expect(server.requests.length).toBe(2);
    expect(result.retries).toEqual([{ type: "retry", attempt: 1, delayMs: 20, error: expect.stringContaining("HTTP 429"), status: 429 }]);
    expect(result.done.content).toEqual([{ type: "text", text: "ok" }]);
  });

  test("a stream that dies mid-way ends with stop error, keeps the partial text, and is not retried", async () => {
    server.push({ text: "partial answer that never ends", die_after: 2 }, { text: "never" });
    const result = await collect(responses(FAST_RETRY));
    expect(server.requests.length).toBe(1);
    expect(result.done.stop).toBe("error");
    expect(result.done.error).toMatch(/connection|closed/i);
    expect(result.done.content).toEqual([{ type: "text", text: "partial answer" }]);
  });

  test("a reset before any output is retried", async () => {
    server.push({ type: "reset" }, { text: "back" });
    const result = await collect(responses(FAST_RETRY));
    expect(result.retries.length).toBe(1);
    expect(result.done.content).toEqual([{ type: "text", text: "back" }]);
  });

  test("an error event inside the stream ends with stop error after partial output", async () => {
    server.push({ text: "one two three", error_after: 1 }, { text: "never" });
    const result = await collect(responses(FAST_RETRY));
    expect(server.requests.length).toBe(1);
    expect(result.text).toBe("one");
    expect(result.done.stop).toBe("error");
    expect(result.done.error).toMatch(/overloaded/i);
  });
});
