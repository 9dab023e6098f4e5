// The json/rpc event stream (host.md, "Compatibility with the Go zot's json and rpc streams"):
// the one place the Go zot's fields are added to the vocabulary's events.
import { describe, expect, it } from "vitest";
import type { ZotEvent } from "../../lib/events/index.ts";
import { eventStream } from "../../lib/modes/event-stream.ts";

const stamp = (sequence: number) => ({ session_id: "s1", cwd: "/w", sequence });

function written(events: ZotEvent[]): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  const stream = eventStream({ write: (line) => void lines.push(line) }, { now: () => Date.UTC(2026, 0, 1) });
  for (const event of events) stream.event(event);
  return lines;
}

describe("The json/rpc event stream", () => {
  it("assistant_message lists the calls announced right after it, in the same order of lines", () => {
    const lines = written([
      { type: "assistant_message", text: "Looking.", ...stamp(1) },
      { type: "tool_call", tool_id: "c1", tool_name: "bash", tool_args: { command: "ls" }, ...stamp(2) },
      { type: "tool_call", tool_id: "c2", tool_name: "read", tool_args_raw: "{oops", ...stamp(3) },
      { type: "turn_end", stop: "tool_use", ...stamp(4) },
    ]);
    expect(lines.map((line) => line.type)).toEqual(["assistant_message", "tool_call", "tool_call", "turn_end"]);
    expect(lines[0]).toEqual({
      type: "assistant_message", text: "Looking.",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool_call", id: "c1", name: "bash", args: { command: "ls" } },
        { type: "tool_call", id: "c2", name: "read", args: {} },
      ],
      time: "2026-01-01T00:00:00.000Z", ...stamp(1),
    });
    expect(lines[1]).toMatchObject({ id: "c1", name: "bash", args: { command: "ls" } });
  });

  it("a response without visible text has no text block; a done releases a waiting message first", () => {
    const lines = written([{ type: "assistant_message", text: "", ...stamp(1) }, { type: "done", stop: "end_turn" }]);
    expect(lines).toEqual([
      { type: "assistant_message", text: "", content: [], time: "2026-01-01T00:00:00.000Z", ...stamp(1) },
      { type: "done", stop: "end_turn" },
    ]);
  });
});
