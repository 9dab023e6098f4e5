// The recap a resumed conversation opens with: prompts, answers, a line per tool call with how it
// ended, cut to one screen, and the footer.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../lib/providers/types.ts";
import { recapLines } from "../../../lib/modes/repl/recap.ts";
import { ageText } from "../../../lib/agent/session/session-family.ts";
import { makeStyle } from "../../../lib/modes/repl/style.ts";

const options = { style: makeStyle(false), columns: 60, rows: 40, sessionId: "s-1", preview: (_: string, args: Record<string, unknown>) => String(args.command ?? ""), now: 3_600_000 * 3 };
const user = (text: string, timestamp?: number): Message => ({ role: "user", content: [{ type: "text", text }], ...(timestamp ? { timestamp } : {}) });
const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }], stop: "end_turn" });

describe("the recap of a resumed conversation", () => {
  it("shows each prompt, the answer, and each tool call marked by how it ended", () => {
    const messages: Message[] = [
      user("fix it", 1),
      { role: "assistant", stop: "tool_use", content: [
        { type: "tool_call", id: "a", name: "bash", args: { command: "make" } },
        { type: "tool_call", id: "b", name: "bash", args: { command: "make test" } },
        { type: "tool_call", id: "c", name: "bash", args: { command: "never answered" } },
      ] },
      { role: "tool_result", tool_id: "a", tool_name: "bash", content: [{ type: "text", text: "ok" }], is_error: false },
      { role: "tool_result", tool_id: "b", tool_name: "bash", content: [{ type: "text", text: "boom" }], is_error: true },
      answer("Fixed.\nAll good."),
    ];
    const lines = recapLines(messages, options);
    expect(lines).toEqual(["", "› fix it", "✓ bash make", "✗ bash make test", "⊘ bash never answered", "Fixed.", "All good.", "",
      "Resumed conversation s-1, last message 2 hours ago, 5 messages."]);
  });

  it("cuts a long answer and a long prompt, and keeps to one screen, newest turns last", () => {
    const long = Array.from({ length: 10 }, (_, i) => `row ${i}`).join("\n");
    expect(recapLines([user(long), answer(long)], options)).toEqual(expect.arrayContaining(["  … 7 more lines", "  … 4 more lines"]));
    const many = Array.from({ length: 40 }, (_, i) => [user(`prompt ${i}`), answer(`answer ${i}`)]).flat();
    const lines = recapLines(many, { ...options, rows: 20 });
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines[0]).toBe("… earlier turns not shown");
    expect(lines).toContain("answer 39");
    expect(lines).not.toContain("answer 0");
  });

  it("strips escape sequences from what it shows", () => {
    expect(recapLines([user("hi\x1b[2Jthere")], options)[1]).toBe("› hithere");
  });

  it("says an age in the largest unit that fits", () => {
    expect(ageText(30_000)).toBe("just now");
    expect(ageText(60_000)).toBe("1 minute ago");
    expect(ageText(5 * 3_600_000)).toBe("5 hours ago");
    expect(ageText(72 * 3_600_000)).toBe("3 days ago");
  });
});
