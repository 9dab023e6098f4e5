// The Gemini provider against the scripted model server's Gemini wire, over real HTTP.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { repairTranscript } from "../../lib/agent/session/session-repair.ts";
import { SKIP_SIGNATURE } from "../../lib/providers/gemini-request.ts";
import { createProvider } from "../../lib/providers/index.ts";
import type { AssistantMessage, Message } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { baseRequest, collect, FAST_RETRY, PNG_1PX } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

const gemini = (apiKey?: string, retry = { maxRetries: 0 }) => createProvider({ provider: "gemini", baseUrl: server.url, apiKey, retry });
const READ_TOOL = { name: "read", description: "Read a file", schema: { type: "object", properties: { path: { type: "string" } } } };

describe("text streaming", () => {
  test("text arrives as deltas; the request goes to streamGenerateContent with system instruction and key header", async () => {
    server.push({ text: "Hello there, world" });
    const result = await collect(gemini("AIza-test"), { model: "gemini-3.8-flash", system: "Be brief." });
    expect(result.events.filter((e) => e.type === "text_delta").length).toBe(3);
    expect(result.done).toMatchObject({ role: "assistant", stop: "end_turn", provider: "gemini", model: "gemini-3.8-flash",
      content: [{ type: "text", text: "Hello there, world" }] });
    const [request] = server.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1beta/models/gemini-3.8-flash:streamGenerateContent");
    expect(request.headers["x-goog-api-key"]).toBe("AIza-test");
    expect(request.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "hello" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
    });
    expect(request.body.generationConfig?.thinkingConfig).toBeUndefined();
    expect(request.body.tools).toBeUndefined();
  });

  test("without a key (a local server) no key header is sent; maxTokens becomes maxOutputTokens", async () => {
    server.push({ text: "ok" });
    await collect(gemini(), { maxTokens: 1234 });
    expect(server.requests[0].headers["x-goog-api-key"]).toBeUndefined();
    expect(server.requests[0].body.generationConfig).toMatchObject({ maxOutputTokens: 1234 });
  });

  test("a signature on the last text part stays on that text block and goes back on it", async () => {
    server.push({ text: "signed answer", text_signature: "sig-text" }, { text: "again" });
    const first = await collect(gemini(), { model: "gemini-3.8-flash" });
    expect(first.done.content).toEqual([{ type: "text", text: "signed answer", signature: "sig-text" }]);
    const messages: Message[] = [...baseRequest().messages, first.done, { role: "user", content: [{ type: "text", text: "more" }] }];
    await collect(gemini(), { model: "gemini-3.8-flash", messages });
    expect(server.requests[1].body.contents[1]).toEqual({ role: "model", parts: [{ text: "signed answer", thoughtSignature: "sig-text" }] });
  });
});

describe("reasoning", () => {
  test("Gemini 3 takes a thinking level; thought parts stream as thinking with their signature", async () => {
    server.push({ thinking: "Let me think", signature: "sig-thought", text: "Answer" });
    const result = await collect(gemini(), { model: "gemini-3.8-flash", reasoning: "high" });
    expect(server.requests[0].body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
    expect(result.thinking).toBe("Let me think");
    expect(result.done.content).toEqual([
      { type: "thinking", thinking: "Let me think", signature: "sig-thought" },
      { type: "text", text: "Answer" },
    ]);
  });

  test("Gemini 2.x takes a thinking budget per effort", async () => {
    server.push({ text: "a" }, { text: "b" });
    await collect(gemini(), { model: "gemini-2.5-flash", reasoning: "low" });
    await collect(gemini(), { model: "gemini-2.5-flash", reasoning: "medium" });
    expect(server.requests.map((r) => r.body.generationConfig.thinkingConfig)).toEqual([
      { includeThoughts: true, thinkingBudget: 2048 }, { includeThoughts: true, thinkingBudget: 8192 },
    ]);
  });
});

describe("tool calls and thought signatures", () => {
  test("function calls become tool calls with their signature, and go back signed with their responses", async () => {
    server.push({ text: "Reading.", tool_calls: [
      { id: "fc_1", name: "read", args: { path: "a.ts" }, signature: "sig-call-1" },
      { name: "read", args: { path: "b.ts" } },
    ] });
    const first = await collect(gemini(), { model: "gemini-3.8-flash", tools: [READ_TOOL] });
    expect(server.requests[0].body.tools).toEqual([{ functionDeclarations: [
      { name: "read", description: "Read a file", parametersJsonSchema: READ_TOOL.schema },
    ] }]);
    expect(first.done.stop).toBe("tool_use");
    expect(first.done.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "tool_call", id: "fc_1", name: "read", args: { path: "a.ts" }, signature: "sig-call-1" },
      { type: "tool_call", id: expect.any(String), name: "read", args: { path: "b.ts" } },
    ]);
    const secondId = (first.done.content[2] as { id: string }).id;

    server.push({ text: "done" });
    const messages: Message[] = [
      ...baseRequest().messages, first.done,
      { role: "tool_result", tool_id: "fc_1", tool_name: "read", content: [{ type: "text", text: "A" }], is_error: false },
      { role: "tool_result", tool_id: secondId, tool_name: "read", content: [{ type: "text", text: "no such file" }], is_error: true },
    ];
    await collect(gemini(), { model: "gemini-3.8-flash", tools: [READ_TOOL], messages });
    expect(server.requests[1].body.contents.slice(1)).toEqual([
      { role: "model", parts: [
        { text: "Reading." },
        { functionCall: { id: "fc_1", name: "read", args: { path: "a.ts" } }, thoughtSignature: "sig-call-1" },
        // Only the first of parallel calls is signed, as Gemini sent them: nothing is added.
        { functionCall: { id: secondId, name: "read", args: { path: "b.ts" } } },
      ] },
      { role: "user", parts: [
        { functionResponse: { id: "fc_1", name: "read", response: { output: "A" } } },
        { functionResponse: { id: secondId, name: "read", response: { error: "no such file" } } },
      ] },
    ]);
  });

  test("an unsigned call (recorded by zot, or another provider's) gets the placeholder on Gemini 3 only", async () => {
    const synthetic: AssistantMessage = { role: "assistant", stop: "tool_use", provider: "gemini", model: "gemini-3.8-flash",
      content: [{ type: "tool_call", id: "t1", name: "read", args: { path: "x" } }] };
    const foreign: AssistantMessage = { role: "assistant", stop: "tool_use", provider: "anthropic", model: "claude-sonnet-4-6",
      content: [{ type: "thinking", thinking: "theirs", signature: "anthropic-sig" }, { type: "tool_call", id: "t2", name: "read", args: {} }] };
    const result = (id: string): Message => ({ role: "tool_result", tool_id: id, tool_name: "read", content: [{ type: "text", text: "ok" }], is_error: false });
    const messages: Message[] = [...baseRequest().messages, synthetic, result("t1"), foreign, result("t2")];
    server.push({ text: "a" }, { text: "b" });
    await collect(gemini(), { model: "gemini-3.1-pro-preview", messages });
    await collect(gemini(), { model: "gemini-2.5-pro", messages });
    const modelTurns = (i: number) => server.requests[i].body.contents.filter((c: any) => c.role === "model");
    expect(modelTurns(0)).toEqual([
      { role: "model", parts: [{ functionCall: { id: "t1", name: "read", args: { path: "x" } }, thoughtSignature: SKIP_SIGNATURE }] },
      { role: "model", parts: [{ functionCall: { id: "t2", name: "read", args: {} }, thoughtSignature: SKIP_SIGNATURE }] },
    ]);
    expect(JSON.stringify(modelTurns(1))).not.toContain("thoughtSignature");
  });
});

describe("a resumed session whose last calls were interrupted", () => {
  test("the model's call keeps its own signature, an unsigned one gets the placeholder, beside the repaired results", async () => {
    const saved: Message[] = [
      ...baseRequest().messages,
      { role: "assistant", stop: "tool_use", provider: "gemini", model: "gemini-3.8-flash",
        content: [{ type: "tool_call", id: "fc_9", name: "bash", args: { command: "sleep 100" }, signature: "sig-interrupted" }] },
      { role: "user", content: [{ type: "text", text: "try again" }] },
      { role: "assistant", stop: "tool_use", provider: "gemini", model: "gemini-3.8-flash",
        content: [{ type: "tool_call", id: "t_ext", name: "read", args: { path: "x" } }] },
    ];
    const { messages, added } = repairTranscript(saved);
    expect(added).toBe(2);
    server.push({ text: "resumed" });
    await collect(gemini(), { model: "gemini-3.8-flash", messages: [...messages, { role: "user", content: [{ type: "text", text: "go on" }] }] });
    const calls = server.requests[0].body.contents.filter((c: any) => c.role === "model").map((c: any) => c.parts[0]);
    expect(calls.map((p: any) => [p.functionCall.id, p.thoughtSignature])).toEqual([["fc_9", "sig-interrupted"], ["t_ext", SKIP_SIGNATURE]]);
    const responses = server.requests[0].body.contents.flatMap((c: any) => c.parts).filter((p: any) => p.functionResponse);
    expect(responses.map((p: any) => p.functionResponse.id)).toEqual(["fc_9", "t_ext"]);
  });
});

describe("images", () => {
  test("user and tool-result images travel as inline data", async () => {
    server.push({ text: "I see a pixel." });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mime_type: "image/png", data: PNG_1PX }] },
      { role: "assistant", stop: "tool_use", provider: "gemini", content: [{ type: "tool_call", id: "s1", name: "screenshot", args: {}, signature: "sig-s" }] },
      { role: "tool_result", tool_id: "s1", tool_name: "screenshot", is_error: false, content: [{ type: "image", mime_type: "image/png", data: PNG_1PX }] },
    ];
    await collect(gemini(), { messages });
    expect(server.requests[0].body.contents).toEqual([
      { role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: PNG_1PX } }] },
      { role: "model", parts: [{ functionCall: { id: "s1", name: "screenshot", args: {} }, thoughtSignature: "sig-s" }] },
      { role: "user", parts: [
        { functionResponse: { id: "s1", name: "screenshot", response: { output: "(1 image attached)" } } },
        { inlineData: { mimeType: "image/png", data: PNG_1PX } },
      ] },
    ]);
  });
});

describe("usage, cost and stop reasons", () => {
  test("prompt, candidate, thought and cached tokens are counted and priced", async () => {
    server.push({ text: "ok", usage: { input: 1000, output: 400, reasoning: 100, cache_read: 2000 } });
    const result = await collect(gemini(), { model: "gemini-3.8-flash" });
    // gemini-3.8-flash: $0.75 in, $3.75 out per million tokens; thoughts bill as output.
    const expected = (1000 * 0.75 + 500 * 3.75) / 1_000_000;
    expect(result.done.usage).toEqual({ input: 1000, output: 500, cache_read: 2000, cache_write: 0, cost_usd: expect.closeTo(expected, 12) });
  });

  test("MAX_TOKENS stops with length; a blocked response ends as an error with the reason", async () => {
    server.push({ text: "cut", stop: "max_tokens" }, { text: "", stop: "SAFETY" });
    expect((await collect(gemini())).done.stop).toBe("length");
    const blocked = await collect(gemini());
    expect(blocked.done.stop).toBe("error");
    expect(blocked.done.error).toContain("SAFETY");
  });
});

describe("failures", () => {
  test("a 429 is retried after its retry-after; its status name and message are kept", async () => {
    server.push({ type: "error", status: 429, retry_after: "0.02", message: "Resource has been exhausted" }, { text: "ok" });
    const result = await collect(gemini(undefined, { ...FAST_RETRY, maxDelayMs: 5_000 } as never));
    expect(result.retries).toEqual([{ type: "retry", attempt: 1, delayMs: 20, status: 429,
      error: "HTTP 429 RESOURCE_EXHAUSTED: Resource has been exhausted" }]);
    expect(result.text).toBe("ok");
  });

  test("a stream cut mid-way ends with stop error and keeps the text received", async () => {
    server.push({ text: "partial answer that never ends", die_after: 2 });
    const result = await collect(gemini());
    expect(server.requests).toHaveLength(1);
    expect(result.done).toMatchObject({ stop: "error", content: [{ type: "text", text: "partial answer" }] });
    expect(result.done.error).toMatch(/connection|closed/i);
  });
});
