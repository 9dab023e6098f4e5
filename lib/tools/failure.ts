// Tools signal failures by throwing `ToolFailure` inside their implementation; `guardExecute`
// turns every throw into an outcome, so a tool's `execute` keeps the "never throws" contract.
import { errorOutcome, type ToolExecutionContext, type ToolOutcome, type ToolStatus } from "./types.ts";

/** A failure addressed to the model: what went wrong and how to fix the call. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly status: ToolStatus = "failed",
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export function cancelledOutcome(toolName: string): ToolOutcome {
  return errorOutcome(`${toolName} was cancelled before it finished.`, "cancelled");
}

/**
 * Wraps a tool body: a signal already aborted gives `cancelled` without running it; a
 * `ToolFailure` becomes its outcome; anything else becomes a `failed` outcome naming the tool.
 */
export function guardExecute(
  toolName: string,
  body: (args: Record<string, unknown>, ctx: ToolExecutionContext) => Promise<ToolOutcome>,
): (args: Record<string, unknown>, ctx: ToolExecutionContext) => Promise<ToolOutcome> {
  return async (args, ctx) => {
    if (ctx.signal.aborted) return cancelledOutcome(toolName);
    try {
      return await body(args ?? {}, ctx);
    } catch (err) {
      if (err instanceof ToolFailure) {
        const outcome = errorOutcome(err.message, err.status);
        if (err.details) outcome.details = err.details;
        return outcome;
      }
      if (ctx.signal.aborted) return cancelledOutcome(toolName);
      return errorOutcome(`${toolName} failed unexpectedly: ${(err as Error)?.message ?? String(err)}`);
    }
  };
}

/** Throws the `cancelled` failure when the call's signal has fired. */
export function throwIfCancelled(toolName: string, signal: AbortSignal): void {
  if (signal.aborted) throw new ToolFailure(`${toolName} was cancelled before it finished.`, "cancelled");
}
