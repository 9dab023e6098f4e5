// host.md exit codes: 0 success · 1 runtime failure · 2 usage error · 130 interrupted.
import type { RunResult } from "../agent/contracts/loop-options.ts";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

export function exitCodeOf(result: Pick<RunResult, "stop">): number {
  switch (result.stop) {
    case "aborted":
      return EXIT_INTERRUPTED;
    case "error":
    case "blocked":
      return EXIT_FAILURE;
    default:
      return EXIT_OK;
  }
}
