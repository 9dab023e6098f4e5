// The progress line while the model works: the clock, the spinner, and the token count that
// estimates streamed text until a step's usage says the real number.
import { describe, expect, it } from "vitest";
import { WORKING_TICK_MS, WorkingLine } from "../../../lib/modes/repl/working-line.ts";

describe("the progress line", () => {
  it("counts whole seconds from the start and turns the spinner every tick", () => {
    const line = new WorkingLine();
    line.begin(1_000);
    expect(line.text(1_000, true)).toBe("⠋ working… 0s · esc to cancel");
    expect(line.text(1_000 + WORKING_TICK_MS, true)).toBe("⠙ working… 0s · esc to cancel");
    expect(line.text(13_500, false)).toMatch(/^. working… 12s$/);
  });

  it("estimates streamed text at four characters a token, then takes the step's usage instead", () => {
    const line = new WorkingLine();
    line.begin(0);
    line.onEvent({ type: "text_delta", delta: "x".repeat(40) });
    expect(line.tokens).toBe(10);
    line.onEvent({ type: "usage", input: 5, output: 7, cache_read: 0, cache_write: 0, cost_usd: 0,
      cumulative: { input: 5, output: 7, cache_read: 0, cache_write: 0, cost_usd: 0 } });
    expect(line.tokens).toBe(7);
    line.onEvent({ type: "thinking_delta", delta: "y" });
    expect(line.text(0, true)).toBe("⠋ working… 0s · 8 tokens · esc to cancel");
    line.begin(5);
    expect(line.tokens).toBe(0);
  });
});
