// A provider's module loads on its first stream (or its warm-up), once: a run that never reaches the model loads
// no SDK, and one that does loads only its own.
import { describe, expect, it } from "vitest";
import { lazyProvider } from "../../lib/providers/lazy.ts";
import type { ModelStreamEvent, Provider, StreamRequest } from "../../lib/providers/types.ts";

const request = { model: "m", messages: [] } as unknown as StreamRequest;

function counted(): { loads: number; load: () => Promise<Provider> } {
  const state = {
    loads: 0,
    async load(): Promise<Provider> {
      state.loads++;
      return {
        name: "fake",
        async *stream(): AsyncIterable<ModelStreamEvent> {
          yield { type: "text_delta", delta: "hi" };
        },
      };
    },
  };
  return state;
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("lazyProvider", () => {
  it("loads nothing until a stream is read, then loads once for every later stream", async () => {
    const state = counted();
    const provider = lazyProvider("fake", state.load);
    expect(provider.name).toBe("fake");
    const pending = provider.stream(request);
    expect(state.loads).toBe(0);
    expect(await collect(pending)).toEqual([{ type: "text_delta", delta: "hi" }]);
    await collect(provider.stream(request));
    expect(state.loads).toBe(1);
  });

  it("passes a failed load on to the stream that asked for it", async () => {
    const provider = lazyProvider("broken", () => Promise.reject(new Error("no such module")));
    await expect(collect(provider.stream(request))).rejects.toThrow("no such module");
  });

  it("warm() starts the one load at once, and the first stream uses it", async () => {
    const state = counted();
    const provider = lazyProvider("fake", state.load);
    provider.warm();
    expect(state.loads).toBe(1);
    provider.warm();
    expect(await collect(provider.stream(request))).toEqual([{ type: "text_delta", delta: "hi" }]);
    expect(state.loads).toBe(1);
  });

  it("a warm-up whose load fails reports it from the first stream, not as an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const provider = lazyProvider("broken", () => Promise.reject(new Error("no such module")));
      provider.warm();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await expect(collect(provider.stream(request))).rejects.toThrow("no such module");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
