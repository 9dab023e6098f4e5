// Retries, failures and aborts for every keyed provider, over real HTTP against the scripted server.
// Every case must end in exactly one `done` (checked by `collect`) and never throw.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { isLocalAddress, toolBlamedBy } from "../../lib/providers/errors.ts";
import { createProvider, type ProviderName, type RetryOptions } from "../../lib/providers/index.ts";
import type { ModelStreamEvent } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { baseRequest, collect, FAST_RETRY } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

describe.each(["anthropic", "openai", "gemini"] as const)("%s", (name: ProviderName) => {
  const provider = (retry: RetryOptions = FAST_RETRY) =>
    createProvider({ provider: name, baseUrl: name === "openai" ? `${server.url}/v1` : server.url, retry });

  describe("retried before output", () => {
    test("a 500 then a 200 is retried once and succeeds", async () => {
      server.push({ type: "error", status: 500, message: "boom" }, { text: "recovered" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(2);
      expect(result.retries).toEqual([{ type: "retry", attempt: 1, delayMs: 1, error: expect.stringContaining("HTTP 500"), status: 500 }]);
      expect(result.retries[0].error).toContain("boom");
      expect(result.done).toMatchObject({ stop: "end_turn", content: [{ type: "text", text: "recovered" }] });
    });

    test("a 429's retry-after in seconds sets the wait", async () => {
      server.push({ type: "error", status: 429, retry_after: "0.02", message: "slow down" }, { text: "ok" });
      const result = await collect(provider({ ...FAST_RETRY, maxDelayMs: 5_000 }));
      expect(result.retries.map((r) => r.delayMs)).toEqual([20]);
      expect(result.done.stop).toBe("end_turn");
    });

    test("retry-after-ms wins over retry-after, and any wait is capped", async () => {
      server.push(
        { type: "error", status: 429, retry_after_ms: 15, retry_after: "1" },
        { type: "error", status: 503, retry_after: "3600" },
        { text: "ok" },
      );
      const result = await collect(provider({ ...FAST_RETRY, maxDelayMs: 40 }));
      expect(result.retries.map((r) => r.delayMs)).toEqual([15, 40]);
      expect(result.done.stop).toBe("end_turn");
    });

    test("a connection reset is retried", async () => {
      server.push({ type: "reset" }, { text: "back" });
      const result = await collect(provider());
      expect(await server.requests[0].outcome).toBe("reset");
      expect(result.retries).toHaveLength(1);
      expect(result.retries[0].error).toMatch(/connection/i);
      expect(result.text).toBe("back");
    });

    test("an error before any content (reset right after headers) is retried", async () => {
      server.push({ text: "lost", die_after: 0 }, { text: "second try" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(2);
      expect(result.text).toBe("second try");
    });

    test("after the last retry the failure ends the stream with stop error; backoff doubles", async () => {
      server.push(...Array.from({ length: 3 }, () => ({ type: "error" as const, status: 503, message: "unavailable" })));
      const result = await collect(provider({ maxRetries: 2, baseDelayMs: 2, maxDelayMs: 1_000 }));
      expect(server.requests.length).toBe(3);
      expect(result.retries.map((r) => [r.attempt, r.delayMs])).toEqual([[1, 2], [2, 4]]);
      expect(result.done.stop).toBe("error");
      expect(result.done.error).toContain("unavailable");
    });
  });

  describe("not retried", () => {
    test("a 400 is not retried and the server's message reaches the caller", async () => {
      server.push({ type: "error", status: 400, message: "tools.0.input_schema: type must be object" }, { text: "never" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(1);
      expect(result.retries).toEqual([]);
      expect(result.done.stop).toBe("error");
      expect(result.done.error).toContain("HTTP 400");
      expect(result.done.error).toContain("tools.0.input_schema: type must be object");
      expect(result.done.content).toEqual([]);
    });

    test("a 400 blaming a tool names it as the provider sent it: toolBlamedBy finds the tool", async () => {
      const tools = [{ name: "read", description: "", schema: { type: "object" } }, { name: "flaky", description: "", schema: { type: "object" } }];
      server.push({ type: "reject_tool", tool: "flaky" });
      const result = await collect(provider(), { tools });
      expect(result.done.error).toMatch(/^HTTP 400 /);
      expect(toolBlamedBy(result.done.error!, tools.map((t) => t.name))).toBe("flaky");
      expect(toolBlamedBy("HTTP 429 rate_limit_error: slow down, flaky", ["flaky"])).toBeUndefined();
      expect(toolBlamedBy("HTTP 400 invalid_request_error: bad value for read_file", ["read"])).toBeUndefined();
    });

    test("a 401 is not retried", async () => {
      server.push({ type: "error", status: 401, message: "invalid x-api-key" }, { text: "never" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(1);
      expect(result.done.error).toContain("invalid x-api-key");
    });

    test("a stream that dies mid-way ends with stop error, keeps the partial text, and is not retried", async () => {
      server.push({ text: "partial answer that never ends", die_after: 2, tool_calls: [{ name: "x", args: {} }] }, { text: "never" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(1);
      expect(result.retries).toEqual([]);
      expect(result.text).toBe("partial answer");
      expect(result.done.stop).toBe("error");
      expect(result.done.error).toMatch(/connection|closed/i);
      expect(result.done.content).toEqual([{ type: "text", text: "partial answer" }]);
    });

    test("an error event inside the stream ends with stop error after partial output", async () => {
      server.push({ text: "one two three", error_after: 1 }, { text: "never" });
      const result = await collect(provider());
      expect(server.requests.length).toBe(1);
      expect(result.text).toBe("one");
      expect(result.done.stop).toBe("error");
      expect(result.done.error).toMatch(/overloaded/i);
    });

    test("a failed response carries no tool calls, even complete ones", async () => {
      // Gemini sends each call whole, in one delta: dying after the first leaves it complete.
      server.push({ tool_calls: [{ id: "t1", name: "a", args: { x: 1 } }, { id: "t2", name: "b", args: { y: 2 } }], die_after: name === "gemini" ? 1 : 4 });
      const result = await collect(provider());
      expect(result.events.some((e) => e.type === "tool_call_delta")).toBe(true);
      expect(result.done.stop).toBe("error");
      expect(result.done.content).toEqual([]);
    });
  });

  describe("abort", () => {
    test("aborting mid-stream ends with stop aborted and closes the HTTP request", async () => {
      server.push({ text: "streaming forever and ever", hang_after: 1 });
      const controller = new AbortController();
      const events: ModelStreamEvent[] = [];
      for await (const event of provider().stream(baseRequest({ signal: controller.signal }))) {
        events.push(event);
        if (event.type === "text_delta") controller.abort();
      }
      const done = events.at(-1);
      expect(done?.type).toBe("done");
      if (done?.type !== "done") return;
      expect(done.message.stop).toBe("aborted");
      expect(done.message.error).toBeTruthy();
      expect(done.message.content).toEqual([{ type: "text", text: "streaming" }]);
      expect(await server.requests[0].outcome).toBe("client_closed");
    });

    test("aborting while waiting to retry ends at once with stop aborted", async () => {
      server.push({ type: "error", status: 429, retry_after: "60" }, { text: "too late" });
      const controller = new AbortController();
      const events: ModelStreamEvent[] = [];
      const stream = provider({ maxRetries: 3, baseDelayMs: 1, maxDelayMs: 120_000 }).stream(baseRequest({ signal: controller.signal }));
      for await (const event of stream) {
        events.push(event);
        if (event.type === "retry") controller.abort();
      }
      expect(events.map((e) => e.type)).toEqual(["retry", "done"]);
      expect(events[1]).toMatchObject({ message: { stop: "aborted" } });
      expect(server.requests.length).toBe(1);
    });

    test("an already aborted signal sends nothing", async () => {
      const controller = new AbortController();
      controller.abort();
      const result = await collect(provider(), { signal: controller.signal });
      expect(result.done.stop).toBe("aborted");
      expect(server.requests.length).toBe(0);
    });

    test("leaving the stream early closes the HTTP request", async () => {
      server.push({ text: "one two three four", hang_after: 2 });
      for await (const event of provider().stream(baseRequest())) {
        if (event.type === "text_delta") break;
      }
      expect(await server.requests[0].outcome).toBe("client_closed");
    });
  });
});

describe.each(["anthropic", "openai", "gemini"] as const)("a refused connection to %s on this machine", (name: ProviderName) => {
  test("fails at once with a hint, without retries", async () => {
    const closed = await new Promise<number>((found) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => found(port));
      });
    });
    const base = `http://127.0.0.1:${closed}`;
    const result = await collect(createProvider({ provider: name, baseUrl: name === "openai" ? `${base}/v1` : base, retry: { ...FAST_RETRY, maxRetries: 4 } }));
    expect(result.retries).toEqual([]);
    expect(result.done).toMatchObject({ stop: "error" });
    expect(result.done.error).toBe(`connection refused: nothing listens on 127.0.0.1:${closed}; is \`ollama serve\` (or your server) running?`);
  });
});

describe("which refusals are local", () => {
  test("loopback, private and link-local addresses are; public ones are not", () => {
    for (const local of ["127.0.0.1", "127.8.9.10", "::1", "localhost", "10.1.2.3", "192.168.1.5", "172.16.0.1", "172.31.255.1", "169.254.1.1", "::ffff:127.0.0.1", "fe80::1", "fd12:3456::1"]) {
      expect(isLocalAddress(local), local).toBe(true);
    }
    for (const remote of ["203.0.113.5", "8.8.8.8", "172.32.0.1", "172.15.0.1", "api.anthropic.com", "2001:db8::1"]) {
      expect(isLocalAddress(remote), remote).toBe(false);
    }
  });
});
