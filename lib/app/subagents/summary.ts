// The one line under a foreground agent's answer: what the child did and what it cost.
import type { ChildOutcome } from "./child-run.ts";

export function summaryLine(agentId: string, outcome: ChildOutcome): string {
  const tokens = outcome.usage.input + outcome.usage.output;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `[agent ${agentId} ${outcome.status}: ${plural(outcome.steps, "step")}, ${plural(outcome.toolCalls, "tool call")}, `
    + `${plural(tokens, "token")}, $${outcome.usage.cost_usd.toFixed(4)}]`;
}
