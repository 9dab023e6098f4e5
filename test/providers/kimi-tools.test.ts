// Kimi K3's message-level tools: a deferred tool activated by a tool result is declared right
// after that result (a content-less system message with `tools`) instead of in the top-level
// list, on that request and every later one; other Kimi models and other clouds get the whole
// list at the top level.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createProvider, type Message, type ToolSpec } from "../../lib/providers/index.ts";
import { acceptsMessageTools } from "../../lib/providers/kimi-tools.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

const loader: ToolSpec = { name: "load_tools", description: "activates tools", schema: { type: "object" } };
const weather: ToolSpec = { name: "weather", description: "the weather", schema: { type: "object", properties: { city: { type: "string" } } } };

const call: Message = { role: "assistant", stop: "tool_use", content: [{ type: "tool_call", id: "call_1", name: "load_tools", args: {} }] };
const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "what is the weather?" }] },
  call,
  { role: "tool_result", tool_id: "call_1", tool_name: "load_tools", content: [{ type: "text", text: "weather is active" }], is_error: false },
];

async function conversation(provider: string, model: string) {
  server.push({ tool_calls: [{ id: "call_1", name: "load_tools" }] }, { text: "sunny" }, { text: "still sunny" });
  const p = createProvider({ provider: provider as "kimi", apiKey: "sk-kimi", baseUrl: `${server.url}/v1`, retry: { maxRetries: 0 } });
  await collect(p, { model, tools: [loader], messages: history.slice(0, 1) });
  await collect(p, { model, tools: [loader, weather], messages: history });
  const later: Message[] = [...history, { role: "assistant", stop: "end_turn", content: [{ type: "text", text: "sunny" }] },
    { role: "user", content: [{ type: "text", text: "and now?" }] }];
  await collect(p, { model, tools: [loader, weather], messages: later });
  return server.requests.map((r) => r.body);
}

describe("kimi deferred tools", () => {
  test("kimi-k3: the activated schema follows the tool result that activated it", async () => {
    const [first, second, third] = await conversation("kimi", "kimi-k3");
    expect(first.tools.map((t: any) => t.function.name)).toEqual(["load_tools"]);
    // The top-level list is unchanged; the new tool is declared after the tool message.
    expect(second.tools.map((t: any) => t.function.name)).toEqual(["load_tools"]);
    expect(second.messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "weather is active" },
      { role: "system", tools: [{ type: "function", function: { name: "weather", description: "the weather", parameters: weather.schema } }] },
    ]);
    expect(second.messages.at(-1)).not.toHaveProperty("content");
    // A later request keeps the declaration where it was, so the prefix stays the same.
    expect(third.tools.map((t: any) => t.function.name)).toEqual(["load_tools"]);
    expect(third.messages.slice(0, second.messages.length)).toEqual(second.messages);
    expect(third.messages.filter((m: any) => Array.isArray(m.tools))).toHaveLength(1);
  });

  test("other kimi models and other clouds get the complete list on the next request", async () => {
    for (const [provider, model] of [["kimi", "kimi-k2.6"], ["groq", "kimi-k3"]] as const) {
      server.requests.length = 0;
      const [, second] = await conversation(provider, model);
      expect(second.tools.map((t: any) => t.function.name)).toEqual(["load_tools", "weather"]);
      expect(second.messages.some((m: any) => Array.isArray(m.tools))).toBe(false);
    }
  });

  test("when the history no longer holds the activating result, the tool returns to the top level", async () => {
    server.push({ text: "a" }, { text: "b" }, { text: "c" });
    const p = createProvider({ provider: "kimi", apiKey: "sk-kimi", baseUrl: `${server.url}/v1`, retry: { maxRetries: 0 } });
    await collect(p, { model: "kimi-k3", tools: [loader], messages: history.slice(0, 1) });
    await collect(p, { model: "kimi-k3", tools: [loader, weather], messages: history });
    // A compacted history: one user message, no tool results.
    await collect(p, { model: "kimi-k3", tools: [loader, weather], messages: [{ role: "user", content: [{ type: "text", text: "summary" }] }] });
    const third = server.requests[2]!.body;
    expect(third.tools.map((t: any) => t.function.name)).toEqual(["load_tools", "weather"]);
    expect(third.messages.some((m: any) => Array.isArray(m.tools))).toBe(false);
  });

  test("only Kimi K3 models take message-level tools", () => {
    expect(["kimi-k3", "kimi-k3.1-pro", "kimi-k3-highspeed"].every(acceptsMessageTools)).toBe(true);
    expect(["kimi-k2.6", "kimi-k30", "moonshot-v1-8k"].some(acceptsMessageTools)).toBe(false);
  });
});
