// Tool calls of one response: calls of a `concurrent` tool (the agent tool) run at the same time,
// every other tool's calls one after another; results reach the model in the proposed order and
// confirmations never overlap.
import { afterEach, describe, expect, it } from "vitest";
import type { Tool } from "../../lib/tools/types.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Span { name: string; id: string; start: number; end: number }

/** A tool that sleeps for `args.ms` and records when it ran. */
function timedTool(name: string, spans: Span[], concurrent: boolean): Tool {
  return {
    name, description: `sleeps (${name})`, schema: { type: "object" }, source: { kind: "builtin" },
    ...(concurrent ? { concurrent: true } : {}),
    async execute(args, ctx) {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, Number(args.ms)));
      spans.push({ name, id: ctx.toolId ?? "", start, end: Date.now() });
      return { content: [{ type: "text", text: `${ctx.toolId} slept` }] };
    },
  };
}

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const calls = (name: string, ...ms: number[]) => ({ tool_calls: ms.map((m, i) => ({ id: `${name}_${i + 1}`, name, args: { ms: m } })) });

describe("concurrent tool calls", () => {
  it("calls of a concurrent tool in one response run at the same time; results keep the proposed order", async () => {
    const spans: Span[] = [];
    h = await startHarness([calls("fan", 300, 100), { text: "done" }], { builtinTools: [timedTool("fan", spans, true)] });
    await h.session.prompt("go");
    const [first, second] = ["fan_1", "fan_2"].map((id) => spans.find((s) => s.id === id)!);
    expect(overlap(first!, second!)).toBe(true);
    expect(second!.end).toBeLessThan(first!.end);
    const results = h.server.requests[1]!.body.messages.at(-1).content.map((b: any) => b.tool_use_id);
    expect(results).toEqual(["fan_1", "fan_2"]);
    expect(h.ofType("tool_result").map((e) => e.tool_id)).toEqual(["fan_2", "fan_1"]);
  });

  it("calls of any other tool run one after another", async () => {
    const spans: Span[] = [];
    h = await startHarness([calls("seq", 150, 50), { text: "done" }], { builtinTools: [timedTool("seq", spans, false)] });
    await h.session.prompt("go");
    expect(spans.map((s) => s.id)).toEqual(["seq_1", "seq_2"]);
    expect(overlap(spans[0]!, spans[1]!)).toBe(false);
  });

  it("concurrent calls are confirmed one at a time, in the proposed order", async () => {
    const spans: Span[] = [];
    let asking = 0;
    let most = 0;
    const asked: string[] = [];
    h = await startHarness([calls("fan", 250, 250, 250), { text: "done" }], {
      builtinTools: [timedTool("fan", spans, true)],
      yolo: false,
      confirmer: async (request) => {
        asked.push(request.toolId);
        most = Math.max(most, ++asking);
        await new Promise((r) => setTimeout(r, 30));
        asking--;
        return "yes";
      },
    });
    await h.session.prompt("go");
    expect(most).toBe(1);
    expect(asked).toEqual(["fan_1", "fan_2", "fan_3"]);
    // Once approved they still ran together.
    expect(overlap(spans.find((s) => s.id === "fan_1")!, spans.find((s) => s.id === "fan_3")!)).toBe(true);
  });
});
