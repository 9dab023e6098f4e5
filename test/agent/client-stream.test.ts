// The observations json/rpc clients get beyond the extension protocol's events (host.md,
// "Compatibility with the Go zot's json and rpc streams"): user_message, assistant_start,
// tool_use_*, assistant_message for every response, the closing turn_end of an aborted run and
// the one stop vocabulary. Extensions still get exactly what the protocol defines.
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, waitFor, type Harness } from "./harness.ts";

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("The json/rpc client stream", () => {
  it("user_message carries the prompt's blocks, images as a byte count, when its run starts", async () => {
    h = await startHarness([{ text: "a pixel" }]);
    await h.session.prompt("what is this?", { images: [{ type: "image", mime_type: "image/png", data: PNG_1PX }] });
    const [message] = h.ofType("user_message");
    expect(message).toEqual({
      type: "user_message",
      content: [{ type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", bytes: Buffer.from(PNG_1PX, "base64").length }],
      time: expect.stringMatching(RFC3339),
    });
    expect(JSON.stringify(message)).not.toContain(PNG_1PX);
    const types = h.types();
    expect(types.indexOf("user_prompt_submit")).toBeLessThan(types.indexOf("user_message"));
    expect(types.indexOf("user_message")).toBeLessThan(types.indexOf("turn_start"));
    expect(h.extensionEvents.some((e) => e.type === "user_message")).toBe(false);
  });

  it("assistant_start comes right after each turn_start, before the response streams", async () => {
    h = await startHarness([{ tool_calls: [{ name: "bash", args: { command: "true" } }] }, { text: "done" }]);
    await h.session.prompt("go");
    const types = h.types();
    const starts = types.flatMap((t, i) => (t === "turn_start" ? [types[i + 1]] : []));
    expect(starts).toEqual(["assistant_start", "assistant_start"]);
    expect(types.indexOf("assistant_start")).toBeLessThan(types.indexOf("tool_use_start"));
  });

  it("a tool call's arguments stream as tool_use_start, tool_use_args fragments and tool_use_end", async () => {
    h = await startHarness([
      { tool_calls: [{ id: "c1", name: "bash", args: { command: "echo one" }, chunks: 3 }, { id: "c2", name: "read", args: { path: "x" } }] },
      { text: "ok" },
    ]);
    await h.session.prompt("go");
    const streamed = h.events.filter((e) => e.type.startsWith("tool_use_"));
    expect(streamed.map((e) => `${e.type}:${(e as { id: string }).id}`)).toEqual([
      "tool_use_start:c1", "tool_use_args:c1", "tool_use_args:c1", "tool_use_args:c1", "tool_use_end:c1",
      "tool_use_start:c2", ...Array(3).fill("tool_use_args:c2"), "tool_use_end:c2",
    ]);
    expect(streamed[0]).toEqual({ type: "tool_use_start", id: "c1", name: "bash" });
    const args = h.ofType("tool_use_args").filter((e) => e.id === "c1").map((e) => e.delta).join("");
    expect(JSON.parse(args)).toEqual({ command: "echo one" });
    // Every argument has streamed before the call is announced.
    expect(h.types().lastIndexOf("tool_use_end")).toBeLessThan(h.types().indexOf("tool_call"));
  });

  it("a response of only tool calls gets an assistant_message with tool_call blocks for clients, none for extensions", async () => {
    h = await startHarness([{ tool_calls: [{ id: "c1", name: "bash", args: { command: "true" } }] }, { text: "all done" }]);
    await h.session.prompt("go");
    const messages = h.clientLinesOf("assistant_message");
    expect(messages).toEqual([
      expect.objectContaining({ text: "", content: [{ type: "tool_call", id: "c1", name: "bash", args: { command: "true" } }], time: expect.stringMatching(RFC3339) }),
      expect.objectContaining({ text: "all done", content: [{ type: "text", text: "all done" }], time: expect.stringMatching(RFC3339) }),
    ]);
    expect(h.extensionEvents.filter((e) => e.type === "assistant_message")).toEqual([expect.objectContaining({ text: "all done" })]);
  });

  it("a response with text and calls has both in its content, text first", async () => {
    h = await startHarness([{ text: "Looking.", tool_calls: [{ id: "c1", name: "bash", args: { command: "true" } }] }, { text: "ok" }]);
    await h.session.prompt("go");
    expect(h.clientLinesOf("assistant_message")[0]!.content).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool_call", id: "c1", name: "bash", args: { command: "true" } },
    ]);
  });

  it("an abort while a tool runs ends the run with turn_end stop aborted, then done; extensions get no extra turn_end", async () => {
    h = await startHarness([{ tool_calls: [{ name: "bash", args: { command: "sleep 30" } }] }]);
    const run = h.session.prompt("wait");
    await waitFor(() => h!.ofType("tool_call").length === 1, "the tool call");
    h.session.abort();
    expect((await run).stop).toBe("aborted");
    const tail = h.types().filter((t) => ["turn_end", "tool_result", "done"].includes(t));
    expect(tail).toEqual(["turn_end", "tool_result", "turn_end", "done"]);
    expect(h.ofType("turn_end").map((e) => e.stop)).toEqual(["tool_use", "aborted"]);
    expect(h.extensionEvents.filter((e) => e.type === "turn_end").map((e) => (e as { stop: string }).stop)).toEqual(["tool_use"]);
  });

  it("an abort while the response streams has the provider's own aborted turn_end, and only that one", async () => {
    h = await startHarness([{ text: "hanging for a while", hang_after: 1 }]);
    const run = h.session.prompt("wait");
    await waitFor(() => h!.ofType("text_delta").length === 1, "streaming");
    h.session.abort();
    await run;
    expect(h.ofType("turn_end").map((e) => e.stop)).toEqual(["aborted"]);
    expect(h.extensionEvents.filter((e) => e.type === "turn_end")).toHaveLength(1);
  });

  it("a response cut off at its output limit stops with length, on both wire formats", async () => {
    for (const wire of ["anthropic", "openai"] as const) {
      h = await startHarness([{ text: "cut", stop: "max_tokens" }], { wire });
      const result = await h.session.prompt("write a novel");
      expect(result.stop).toBe("length");
      expect(h.ofType("turn_end").map((e) => e.stop)).toEqual(["length"]);
      await h.close();
      h = undefined;
    }
  });
});
