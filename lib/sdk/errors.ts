// Errors the SDK hands to extension code. Each carries a machine-readable `code` so callers can
// tell a refused request from a cancelled or timed-out one without matching message text.

/** Why `callTool` could not produce a result. Tool failures are results, not errors. */
export type CallToolErrorCode = "unsupported" | "invalid" | "cancelled" | "timeout" | "disconnected";

/** `callTool` failed before a `tool_result` arrived: the host lacks `call_tool`, bad arguments,
 * cancellation, timeout, or the host went away. */
export class CallToolError extends Error {
  override readonly name = "CallToolError";
  constructor(
    readonly code: CallToolErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What ended a handler's work; the reason of the handler's aborted `ctx.signal`. */
export type AbortCause = "tool_cancel" | "shutdown" | "eof";

/** The `reason` of an aborted handler signal. */
export class HandlerAbortedError extends Error {
  override readonly name = "HandlerAbortedError";
  constructor(readonly kind: AbortCause) {
    super(
      kind === "tool_cancel"
        ? "the host cancelled this tool call"
        : kind === "shutdown"
          ? "zot is shutting down"
          : "the host closed the connection",
    );
  }
}

/** A frame the SDK refused to write: it would break the protocol (invalid field, not
 * serializable, or over the 4 MiB frame limit). Nothing was written. */
export class OutboundFrameError extends Error {
  override readonly name = "OutboundFrameError";
}

/** A one-line description of anything thrown, for logs and error replies. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
