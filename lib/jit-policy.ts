// The compiled binary starts with the JIT's call-count thresholds raised (release/compile-flags.ts):
// start-up code runs once, and compiling it cost a one-shot run about a tenth of its CPU time and
// 3 MB (bench/startup.ts). Loops still compile as they run. A run still going after a second is
// past its start, so from then on functions called often compile as usual. A thin adapter over
// Bun's setting; on other runtimes (and before Bun had it) nothing happens.

export const STARTUP_MS = 1000;

type JitControl = { unsafe?: { setJITPolicy?(scale: number): void } };

/** Restores the normal JIT policy once the run has gone on for STARTUP_MS. */
export function restoreJitPolicyAfterStartup(): void {
  const bun = (globalThis as { Bun?: JitControl }).Bun;
  const setPolicy = bun?.unsafe?.setJITPolicy;
  if (typeof setPolicy !== "function") return;
  setTimeout(() => setPolicy.call(bun!.unsafe, 1), STARTUP_MS).unref();
}
