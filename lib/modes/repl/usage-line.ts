// The dim line after each run: the run's tokens and cost, and the session's cost so far.

export interface RunUsage {
  input: number;
  output: number;
  cacheRead: number;
  costUsd: number;
}

/** Compact token count: 950, 1.2k, 34k, 1.5M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

function trim(x: number): string {
  return x < 10 ? x.toFixed(1).replace(/\.0$/, "") : String(Math.round(x));
}

function formatCost(usd: number): string {
  return `$${usd.toFixed(usd >= 1 ? 2 : 4)}`;
}

/**
 * `↳ 1.2k in · 340 out · 8.1k cached · $0.0042 (session $0.0310)`; zero parts are left out and
 * so is the cost when it is 0 (a model without known prices). Empty when nothing is left.
 */
export function formatUsageLine(run: RunUsage, sessionCostUsd: number): string {
  const parts: string[] = [];
  if (run.input > 0) parts.push(`${formatTokens(run.input)} in`);
  if (run.output > 0) parts.push(`${formatTokens(run.output)} out`);
  if (run.cacheRead > 0) parts.push(`${formatTokens(run.cacheRead)} cached`);
  if (run.costUsd > 0) parts.push(`${formatCost(run.costUsd)} (session ${formatCost(Math.max(sessionCostUsd, run.costUsd))})`);
  return parts.length > 0 ? `↳ ${parts.join(" · ")}` : "";
}
