// Timing helpers shared by the protocol benchmarks. Times are milliseconds from
// performance.now(); every result array comes back sorted ascending.

/** The value at quantile `p` (0..1) of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** `warmup` untimed calls (JIT, buffers), then `calls` timed sequential ones. */
export async function timeCalls(call: (i: number) => Promise<void>, calls: number, warmup = 200): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call(warmup + i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/**
 * One cold start: times `start()` through the first result of `firstCall`, then runs `stop`
 * untimed (so a slow shutdown never counts, and is over before the next start begins).
 */
export async function timeColdStart<S>(
  start: () => Promise<S>,
  firstCall: (session: S) => Promise<void>,
  stop: (session: S) => Promise<void>,
): Promise<number> {
  const begin = performance.now();
  const session = await start();
  try {
    await firstCall(session);
    return performance.now() - begin;
  } finally {
    await stop(session);
  }
}
