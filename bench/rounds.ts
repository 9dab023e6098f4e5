// Alternating rounds: one ratio measured once is at the mercy of whatever else the machine did
// meanwhile (the bridge read 0.80× in one run and 1.65× in another). Each round starts a fresh
// session of every contender, in an order that rotates from round to round, and takes each
// one's p50 over the same number of calls; a round's ratio compares contenders measured seconds
// apart, and the median over the rounds is the figure to report.
import type { Contender } from "./contenders.ts";
import { percentile, timeCalls } from "./timing.ts";

export interface RoundsResult {
  /** Per contender, its p50 (ms) of each round, in round order. */
  p50s: Map<Contender, number[]>;
  /** Per contender, its p50 over the baseline's p50 of the same round, in round order. */
  ratios: Map<Contender, number[]>;
}

export async function alternatingRounds(baseline: Contender, others: Contender[], rounds: number, calls: number): Promise<RoundsResult> {
  const all = [baseline, ...others];
  const p50s = new Map(all.map((c) => [c, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    const order = all.map((_, i) => all[(i + round) % all.length]!);
    for (const contender of order) {
      const session = await contender.start();
      try {
        p50s.get(contender)!.push(percentile(await timeCalls((i) => session.call(i), calls), 0.5));
      } finally {
        await session.close();
      }
    }
  }
  const base = p50s.get(baseline)!;
  const ratios = new Map(others.map((c) => [c, p50s.get(c)!.map((p, round) => p / base[round]!)]));
  return { p50s, ratios };
}

/** The median of unsorted values. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
