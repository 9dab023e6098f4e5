import { afterEach, describe, expect, it } from "vitest";
import { chooseCut, SUMMARY_PREFIX } from "../../lib/agent/compaction/compaction.ts";
import { readSession } from "../../lib/agent/session/session-file.ts";
import { openSession } from "../../lib/agent/session/session-select.ts";
import { estimateTokens } from "../../lib/agent/compaction/tokens.ts";
import { pathsUnder } from "../../lib/paths.ts";
import type { Message } from "../../lib/providers/types.ts";
import { milestones, startHarness, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const long = (tag: string, chars: number) => `${tag} ${"lorem ipsum ".repeat(Math.ceil(chars / 12))}`.slice(0, chars);

describe("Compaction: /compact", () => {
  it("the token estimate is the serialized text bytes divided by four, rounded up", async () => {
    // 9 + 12 + 8 ("héllo!!": é is two bytes) + 4 = 33 bytes of text → ceil(33 / 4) = 9 tokens.
    h = await startHarness([{ text: "0123456789ab" }, { text: "done" }, { text: "SUMMARY: short." }]);
    await h.session.prompt("abcdefghi");
    await h.session.prompt("héllo!!");
    await h.session.compact();
    expect(h.ofType("pre_compact")[0]).toMatchObject({ message_count: 4, token_estimate: 9 });
  });

  it("summarises older messages through the provider, keeps recent ones, and pairs pre/post_compact", async () => {
    h = await startHarness([
      { text: long("ANSWER-ONE", 2000) },
      { text: long("ANSWER-TWO", 2000) },
      { text: "SUMMARY: the user asked two questions about lorem ipsum." },
      { text: "after compaction" },
    ]);
    const opened = openSession({ kind: "new" }, { sessionsDir: pathsUnder(h.home).sessions, cwd: h.cwd, provider: "anthropic", model: "claude-sonnet-4-6" });
    const session = h.newSession({ session: opened });
    await session.prompt("QUESTION-ONE");
    await session.prompt("QUESTION-TWO");
    const before = session.messages.length;
    const beforeTokens = estimateTokens(session.messages);

    const result = await session.compact();
    expect(result.status).toBe("completed");

    // The summary request carries the older conversation as text and offers no tools.
    const summaryRequest = h.server.requests[2]!.body;
    expect(summaryRequest.tools ?? []).toEqual([]);
    const asked = JSON.stringify(summaryRequest.messages);
    expect(asked).toContain("QUESTION-ONE");
    expect(asked).toContain("ANSWER-ONE");

    const [pre] = h.ofType("pre_compact");
    const [post] = h.ofType("post_compact");
    expect(pre).toMatchObject({ message_count: before, token_estimate: beforeTokens });
    expect(post).toMatchObject({ compaction_id: pre!.compaction_id, status: "completed", message_count: session.messages.length, token_estimate: estimateTokens(session.messages) });
    expect(post!.message_count).toBeLessThan(before);
    expect(result).toMatchObject({ compaction_id: pre!.compaction_id, message_count: post!.message_count });

    const first = session.messages[0]!;
    expect(first.role).toBe("user");
    expect(JSON.stringify(first)).toContain(SUMMARY_PREFIX);
    expect(JSON.stringify(first)).toContain("SUMMARY: the user asked two questions");
    expect(session.messages.at(-1)).toMatchObject({ role: "assistant" });
    expect(JSON.stringify(session.messages)).toContain("ANSWER-TWO");
    expect(JSON.stringify(session.messages)).not.toContain("QUESTION-ONE");

    // The model continues from the summary; the session file replays to the same transcript.
    await session.prompt("QUESTION-THREE");
    const next = JSON.stringify(h.server.requests[3]!.body.messages);
    expect(next).toContain("SUMMARY: the user asked two questions");
    expect(next).not.toContain("QUESTION-ONE");
    expect(readSession(opened.file!.path).messages).toEqual(session.messages);
  });

  it("an empty transcript completes with zero counts and no request", async () => {
    h = await startHarness([]);
    const result = await h.session.compact();
    expect(result).toMatchObject({ status: "completed", message_count: 0, token_estimate: 0 });
    expect(h.types()).toEqual(["session_start", "pre_compact", "post_compact", "compact_done"]);
    expect(h.ofType("compact_done")).toEqual([{ type: "compact_done", summary: "" }]);
    expect(h.server.requests).toHaveLength(0);
  });

  it("a failed summary leaves the transcript unchanged and reports failed with the error", async () => {
    h = await startHarness([{ text: long("A", 800) }, { text: long("B", 800) }, { type: "error", status: 400, message: "summary refused" }]);
    await h.session.prompt("one");
    await h.session.prompt("two");
    const before = [...h.session.messages];
    const result = await h.session.compact();
    expect(result.status).toBe("failed");
    expect(result.error).toContain("summary refused");
    expect(h.session.messages).toEqual(before);
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "failed", message_count: 4, error: expect.stringContaining("summary refused") });
  });

  it("a summary slower than the timeout is timed_out", async () => {
    h = await startHarness([{ text: long("A", 800) }, { text: long("B", 800) }, { text: "never finishes", hang_after: 1 }], { compaction: { timeoutMs: 150 } });
    await h.session.prompt("one");
    await h.session.prompt("two");
    const result = await h.session.compact();
    expect(result.status).toBe("timed_out");
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "timed_out", message_count: 4 });
  });

  it("abort() cancels a running compaction", async () => {
    h = await startHarness([{ text: long("A", 800) }, { text: long("B", 800) }, { text: "never finishes", hang_after: 1 }]);
    await h.session.prompt("one");
    await h.session.prompt("two");
    const pending = h.session.compact();
    while (h.server.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
    h.session.abort();
    const result = await pending;
    expect(result.status).toBe("cancelled");
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "cancelled", message_count: 4 });
  });
});

describe("Compaction: automatic at ~85% of the context window", () => {
  it("runs before the model step once the estimate passes the threshold, then the step sees the summary", async () => {
    h = await startHarness(
      [{ text: long("BIG-ANSWER", 4000) }, { text: "SUMMARY-AUTO" }, { text: "continuing" }],
      { contextWindow: 1000, prompt: { systemPrompt: "S" } },
    );
    await h.session.prompt("first");
    expect(h.ofType("pre_compact")).toHaveLength(0);
    await h.session.prompt("second");

    const order = h.types(milestones).slice(h.types(milestones).lastIndexOf("user_prompt_submit"));
    expect(order).toEqual(["user_prompt_submit", "pre_compact", "post_compact", "compact_done", "turn_start", "assistant_message", "turn_end", "done"]);
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "completed", message_count: 2 });
    expect(h.ofType("compact_done")).toEqual([{ type: "compact_done", summary: "SUMMARY-AUTO" }]);
    const step = h.server.requests[2]!.body.messages;
    expect(JSON.stringify(step)).toContain("SUMMARY-AUTO");
    expect(JSON.stringify(step)).toContain("second");
    expect(JSON.stringify(step)).not.toContain("BIG-ANSWER");
  });

  it("a failed automatic compaction is reported and the run goes on", async () => {
    h = await startHarness(
      [{ text: long("BIG", 4000) }, { type: "error", status: 400, message: "nope" }, { text: "went on anyway" }],
      { contextWindow: 1000 },
    );
    await h.session.prompt("first");
    const result = await h.session.prompt("second");
    expect(result.text).toBe("went on anyway");
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "failed" });
    expect(h.ofType("compact_done")).toEqual([{ type: "compact_done", summary: "" }]);
    expect(h.ofType("error").map((e) => e.message).join("\n")).toMatch(/automatic compaction failed/);
  });
});

describe("Compaction: where to cut", () => {
  const user = (t: string): Message => ({ role: "user", content: [{ type: "text", text: t }] });
  const call = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_call", id, name: "bash", args: {} }], stop: "tool_use" });
  const result = (id: string, t: string): Message => ({ role: "tool_result", tool_id: id, tool_name: "bash", content: [{ type: "text", text: t }], is_error: false });

  it("never keeps a tool result without its call", () => {
    const messages = [user("x".repeat(400)), call("a"), result("a", "y".repeat(400)), result("a", "z")];
    const cut = chooseCut(messages, 10);
    expect(messages[cut]?.role ?? "end").not.toBe("tool_result");
    expect(cut).toBe(1);
  });

  it("returns 0 when there is nothing before the kept part", () => {
    expect(chooseCut([user("only")], 1000)).toBe(0);
    expect(chooseCut([], 1000)).toBe(0);
  });
});

describe("Compaction: token usage", () => {
  const cumulativeOf = (h: Harness) => h.ofType("usage").at(-1)!.cumulative;

  it("adds the summary call's usage to the session's cumulative usage and emits a usage event for it", async () => {
    h = await startHarness([
      { text: long("A", 800), usage: { input: 100, output: 10 } },
      { text: long("B", 800), usage: { input: 200, output: 20 } },
      { text: "SUMMARY-WITH-USAGE", usage: { input: 1000, output: 50, cache_read: 7, cache_write: 3 } },
    ]);
    await h.session.prompt("one");
    await h.session.prompt("two");
    const [, second] = h.ofType("usage");
    expect((await h.session.compact()).status).toBe("completed");

    const usage = h.ofType("usage");
    expect(usage).toHaveLength(3);
    const summary = usage[2]!;
    expect(summary).toMatchObject({ input: 1000, output: 50, cache_read: 7, cache_write: 3 });
    expect(summary.cost_usd).toBeGreaterThan(0);
    expect(summary.cumulative).toEqual({
      input: 1300, output: 80, cache_read: 7, cache_write: 3,
      cost_usd: expect.closeTo(second!.cumulative.cost_usd + summary.cost_usd, 12),
    });
    expect(h.session.state.usage).toEqual(summary.cumulative);
    // Reported while the compaction runs: between its pre_compact and post_compact.
    expect(h.types((e) => ["pre_compact", "usage", "post_compact"].includes(e.type)).slice(-3))
      .toEqual(["pre_compact", "usage", "post_compact"]);
  });

  it("counts the usage of a summary that fails (its tokens were spent) and of automatic compaction", async () => {
    h = await startHarness(
      [
        { text: long("BIG", 4000), usage: { input: 100, output: 10 } },
        { text: "", usage: { input: 900, output: 1 } }, // an empty summary: the compaction fails
        { text: "went on", usage: { input: 300, output: 30 } },
      ],
      { contextWindow: 1000 },
    );
    await h.session.prompt("first");
    await h.session.prompt("second");
    expect(h.ofType("post_compact")[0]).toMatchObject({ status: "failed", error: "the model returned an empty summary" });
    expect(h.ofType("usage").map((u) => [u.input, u.output])).toEqual([[100, 10], [900, 1], [300, 30]]);
    expect(cumulativeOf(h)).toMatchObject({ input: 1300, output: 41 });
    expect(h.session.state.usage).toEqual(cumulativeOf(h));
  });
});
