// The stall timeout: a stream that goes quiet without closing is aborted and treated as a dropped
// connection. Real HTTP against the scripted server (`hang_after` keeps the stream open and
// silent); the timeout is shrunk to a fraction of a second.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createProvider, DEFAULT_RETRY, type ProviderName, type RetryOptions } from "../../lib/providers/index.ts";
import { formatDuration, StallWatchdog, StreamStallError } from "../../lib/providers/stall.ts";
import type { ModelStreamEvent } from "../../lib/providers/types.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { baseRequest, collect, FAST_RETRY } from "./helpers.ts";

const STALL_MS = 200;
const STALLED = "the model stream stalled: no data for 200 ms";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => { await server.close(); });

describe.each(["anthropic", "openai"] as const)("%s", (name: ProviderName) => {
  const provider = (retry: RetryOptions = {}) => createProvider({
    provider: name,
    baseUrl: name === "openai" ? `${server.url}/v1` : server.url,
    retry: { ...FAST_RETRY, stallTimeoutMs: STALL_MS, ...retry },
  });

  test("a stall before any output is retried, closes the stalled request, and the retry succeeds", async () => {
    server.push({ text: "never shown", hang_after: 0 }, { text: "recovered" });
    const result = await collect(provider());
    expect(server.requests.length).toBe(2);
    expect(await server.requests[0].outcome).toBe("client_closed");
    expect(result.retries).toEqual([{ type: "retry", attempt: 1, delayMs: 1, error: STALLED }]);
    expect(result.text).toBe("recovered");
    expect(result.done).toMatchObject({ stop: "end_turn", content: [{ type: "text", text: "recovered" }] });
  });

  test("a server that never sends response headers counts as a stall, after the longer first-event wait", async () => {
    server.push(() => new Promise(() => {}), { text: "answered" });
    const result = await collect(provider());
    expect(await server.requests[0].outcome).toBe("client_closed");
    // Before the first event the limit is FIRST_EVENT_STALL_FACTOR (5) times the stall timeout.
    expect(result.retries.map((r) => r.error)).toEqual(["the model stream stalled: no data for 1 s"]);
    expect(result.text).toBe("answered");
  });

  test("a stall after output ends with stop error and the partial text, without a retry", async () => {
    server.push({ text: "partial answer that hangs", hang_after: 2 }, { text: "never" });
    const result = await collect(provider());
    expect(server.requests.length).toBe(1);
    expect(await server.requests[0].outcome).toBe("client_closed");
    expect(result.retries).toEqual([]);
    expect(result.text).toBe("partial answer");
    expect(result.done.stop).toBe("error");
    expect(result.done.error).toBe(STALLED);
    expect(result.done.content).toEqual([{ type: "text", text: "partial answer" }]);
  });

  test("stalls use the retry budget; the last one ends with stop error", async () => {
    server.push({ text: "one", hang_after: 0 }, { text: "two", hang_after: 0 }, { text: "never" });
    const result = await collect(provider({ maxRetries: 1 }));
    expect(server.requests.length).toBe(2);
    expect(result.retries).toHaveLength(1);
    expect(result.done).toMatchObject({ stop: "error", error: STALLED, content: [] });
  });

  test("a slow stream whose every gap is shorter than the timeout is not a stall", async () => {
    // Every event, the first included, comes after a pause of 0.55 × the timeout. Events that yield
    // no delta (message start, block start, usage) must count as signs of life too: two in a row
    // (before the first delta, and at the end) span more than the timeout.
    server.push({ text: "slow steady", chunk_delay_ms: 165 });
    const result = await collect(provider({ maxRetries: 0, stallTimeoutMs: 300 }));
    expect(result.done.stop).toBe("end_turn");
    expect(result.text).toBe("slow steady");
  });

  test("time the caller spends on an event does not count as silence", async () => {
    // The server is still sending when a clock that counted the caller's time would run out.
    server.push({ text: "read me slowly", chunk_delay_ms: STALL_MS / 4 });
    const events: ModelStreamEvent[] = [];
    for await (const event of provider({ maxRetries: 0 }).stream(baseRequest())) {
      events.push(event);
      if (events.length === 1) await new Promise((done) => setTimeout(done, STALL_MS * 2));
    }
    expect(events.at(-1)).toMatchObject({ type: "done", message: { stop: "end_turn" } });
  });

  test("a user abort during the wait after a stall still ends with stop aborted", async () => {
    server.push({ text: "never shown", hang_after: 0 }, { text: "too late" });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const stream = provider({ maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 }).stream(baseRequest({ signal: controller.signal }));
    for await (const event of stream) {
      events.push(event);
      if (event.type === "retry") controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(["retry", "done"]);
    expect(events[1]).toMatchObject({ message: { stop: "aborted" } });
    expect(server.requests.length).toBe(1);
  });
});

describe("StallWatchdog", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  test("fires once after the timeout with no touch; a touch restarts the wait", () => {
    const onStall = vi.fn();
    const watchdog = new StallWatchdog(100, onStall);
    watchdog.resume();
    vi.advanceTimersByTime(90);
    watchdog.touch();
    vi.advanceTimersByTime(90);
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(watchdog.stalled).toBe(true);
    watchdog.resume();
    vi.advanceTimersByTime(1_000);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  test("until the first touch the longer first-event limit applies", () => {
    const onStall = vi.fn();
    const watchdog = new StallWatchdog(100, onStall, 500);
    watchdog.resume();
    vi.advanceTimersByTime(400);
    expect(onStall).not.toHaveBeenCalled();
    watchdog.touch();
    vi.advanceTimersByTime(99);
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStall).toHaveBeenCalledWith(100);
    const silent = vi.fn();
    new StallWatchdog(100, silent, 500).resume();
    vi.advanceTimersByTime(500);
    expect(silent).toHaveBeenCalledWith(500);
  });

  test("a paused clock never fires and a touch does not restart it", () => {
    const onStall = vi.fn();
    const watchdog = new StallWatchdog(100, onStall);
    watchdog.resume();
    watchdog.pause();
    watchdog.touch();
    vi.advanceTimersByTime(1_000);
    expect(onStall).not.toHaveBeenCalled();
  });

  test("0 disables it; a delay beyond the timer range does not fire at once", () => {
    const onStall = vi.fn();
    new StallWatchdog(0, onStall).resume();
    new StallWatchdog(Number.POSITIVE_INFINITY, onStall).resume();
    new StallWatchdog(2 ** 40, onStall).resume();
    vi.advanceTimersByTime(60_000);
    expect(onStall).not.toHaveBeenCalled();
  });
});

test("the default timeout is 120 s and its message says so", () => {
  expect(DEFAULT_RETRY.stallTimeoutMs).toBe(120_000);
  expect(new StreamStallError(DEFAULT_RETRY.stallTimeoutMs).message).toBe("the model stream stalled: no data for 120 s");
  expect([formatDuration(200), formatDuration(1500), formatDuration(120_000)]).toEqual(["200 ms", "1.5 s", "120 s"]);
});
