import { describe, expect, it } from "vitest";
import { cutUtf8, observeContent } from "../../lib/agent/loop/observation.ts";
import { OBSERVATION_MAX_BLOCKS, OBSERVATION_MAX_BYTES } from "../../lib/protocol/limits.ts";
import { repairTranscript } from "../../lib/agent/session/session-repair.ts";
import type { Message } from "../../lib/providers/types.ts";

describe("tool_result observations: 256 KiB and 128 blocks", () => {
  it("passes small content through untouched", () => {
    const content = [{ type: "text" as const, text: "ok" }, { type: "image" as const, mime_type: "image/png", data: "AAAA" }];
    expect(observeContent(content)).toEqual({ content, truncated: false });
  });

  it("shortens text at a UTF-8 boundary to the byte budget and marks truncated", () => {
    const text = "é".repeat(OBSERVATION_MAX_BYTES); // 2 bytes each: twice the budget
    const observed = observeContent([{ type: "text", text }]);
    expect(observed.truncated).toBe(true);
    const kept = (observed.content[0] as { text: string }).text;
    expect(Buffer.byteLength(kept, "utf8")).toBe(OBSERVATION_MAX_BYTES);
    expect(kept).toBe("é".repeat(OBSERVATION_MAX_BYTES / 2));
    expect(cutUtf8("aé", 2)).toBe("a");
  });

  it("omits an image that does not fit and unsupported blocks", () => {
    const big = "A".repeat(OBSERVATION_MAX_BYTES);
    const observed = observeContent([{ type: "text", text: "head" }, { type: "image", mime_type: "image/png", data: big }, { type: "audio", data: "x" }]);
    expect(observed).toEqual({ content: [{ type: "text", text: "head" }], truncated: true });
  });

  it("keeps at most 128 blocks", () => {
    const blocks = Array.from({ length: OBSERVATION_MAX_BLOCKS + 5 }, (_, i) => ({ type: "text" as const, text: String(i) }));
    const observed = observeContent(blocks);
    expect(observed.content).toHaveLength(OBSERVATION_MAX_BLOCKS);
    expect(observed.truncated).toBe(true);
  });
});

describe("Transcript repair on load", () => {
  const call = (...ids: string[]): Message => ({ role: "assistant", content: ids.map((id) => ({ type: "tool_call" as const, id, name: "bash", args: {} })), stop: "tool_use" });
  const result = (id: string): Message => ({ role: "tool_result", tool_id: id, tool_name: "bash", content: [{ type: "text", text: id }], is_error: false });
  const user: Message = { role: "user", content: [{ type: "text", text: "hi" }] };

  it("adds interrupted results for unanswered calls, after the real ones", () => {
    const repaired = repairTranscript([user, call("a", "b"), result("a"), user]);
    expect(repaired.added).toBe(1);
    expect(repaired.messages.map((m) => (m.role === "tool_result" ? `result:${m.tool_id}:${m.is_error}` : m.role))).toEqual([
      "user", "assistant", "result:a:false", "result:b:true", "user",
    ]);
  });

  it("drops results that answer no call", () => {
    const repaired = repairTranscript([user, result("ghost"), call("a"), result("a"), result("a")]);
    expect(repaired.dropped).toBe(2);
    expect(repaired.messages).toHaveLength(3);
  });
});

describe("a file change's diff in the observation", () => {
  it("comes after the content, in the budget the content leaves", async () => {
    const { observeResult } = await import("../../lib/agent/loop/observation.ts");
    const content = [{ type: "text" as const, text: "12345" }];
    expect(observeResult(content, "+a\n", { maxBytes: 100, maxBlocks: 10 })).toEqual({ content, diff: "+a\n", truncated: false });
    const cut = observeResult(content, "+abcdefgh\n", { maxBytes: 10, maxBlocks: 10 });
    expect(cut).toEqual({ content, diff: "+abcd", truncated: true });
    const none = observeResult([{ type: "text", text: "x".repeat(10) }], "+a\n", { maxBytes: 10, maxBlocks: 10 });
    expect(none).toEqual({ content: [{ type: "text", text: "x".repeat(10) }], truncated: true });
  });
});
