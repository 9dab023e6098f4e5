// What the event view commits for a finished tool call and a retry, fed events directly.
import { describe, expect, it } from "vitest";
import type { ZotEvent } from "../../../lib/events/index.ts";
import { EventView } from "../../../lib/modes/repl/event-view.ts";
import { makeStyle } from "../../../lib/modes/repl/style.ts";
import { truncationNote } from "../../../lib/tools/output-tail.ts";

function view() {
  const committed: string[] = [];
  const v = new EventView({ style: makeStyle(false), columns: () => 200, commit: (l) => committed.push(...l), changed: () => undefined,
    preview: (name, args) => String(args.path ?? args.command ?? name) });
  v.endLoad();
  return { v, committed };
}

const stamp = { session_id: "s", cwd: "/p", sequence: 1 };
function result(tool: string, args: Record<string, unknown>, text: string, extra: { truncated?: boolean } = {}): ZotEvent {
  const content = [{ type: "text" as const, text }];
  return { type: "tool_result", ...stamp, tool_id: "t1", tool_name: tool, tool_args: args, status: "completed", executed: true,
    result: { content, is_error: false, ...extra }, id: "t1", is_error: false, content } as ZotEvent;
}

describe("a tool result line", () => {
  it("a write counts the lines it put in the file, a final line break ending the last line", () => {
    const { v, committed } = view();
    v.handle(result("write", { path: "six.txt", content: "1\n2\n3\n4\n5\n6\n" }, "Wrote 12 bytes to six.txt"));
    v.handle(result("write", { path: "two.txt", content: "a\nb" }, "Wrote 3 bytes to two.txt"));
    expect(committed).toEqual(["✓ write six.txt → completed (6 lines)", "✓ write two.txt → completed (2 lines)"]);
  });

  it("bash output cut to its tail says how many of how many lines the model saw", () => {
    const { v, committed } = view();
    const note = truncationNote({ text: "x\n".repeat(1067), truncated: true, totalLines: 3000, totalBytes: 90_000, shownLines: 1067 });
    v.handle(result("bash", { command: "seq 3000" }, `${note}\n${"x\n".repeat(1067)}`, { truncated: true }));
    expect(committed).toEqual(["✓ bash seq 3000 → completed (1067 of 3000 lines shown to the model)"]);
  });

  it("a result cut by the observation budget says so; an uncut one counts its lines", () => {
    const { v, committed } = view();
    v.handle(result("read", { path: "big.txt" }, "a\nb\nc", { truncated: true }));
    v.handle(result("read", { path: "small.txt" }, "a\n\nb"));
    expect(committed).toEqual(["✓ read big.txt → completed (3 lines, cut for the model)", "✓ read small.txt → completed (2 lines)"]);
  });
});

describe("a retry", () => {
  it("is one line with the attempt and the wait, not an error", () => {
    const { v, committed } = view();
    v.handle({ type: "retry", attempt: 2, delay_ms: 1500, status: 529, message: "HTTP 529: overloaded" } as ZotEvent);
    expect(committed).toEqual(["↻ model request failed (HTTP 529: overloaded); retry 2 in 1.5 s"]);
  });
});
