// Outstanding `call_tool` requests on the protocol's PendingRequests: correlation by id, timeout
// and cancellation (both send `call_tool_cancel`), and every pending request settled when the
// host goes away.
import {
  CALL_TOOL_TIMEOUT_MS, isJsonObject, PendingRequests, type CallToolResultFrame, type FrameTransport, type Settlement,
} from "../protocol/index.ts";
import { CallToolError } from "./errors.ts";
import type { CallToolOptions, CallToolResult, JsonObject } from "./types.ts";
import type { OutboundFrame } from "./writer.ts";

export interface CallToolClientOptions {
  /** Writes a frame; false when the connection is closed. */
  send: FrameTransport<OutboundFrame>["send"];
  defaultTimeoutMs?: number;
}

type Failure = Extract<Settlement<CallToolResultFrame>, { ok: false }>;

export class CallToolClient {
  private readonly pending = new PendingRequests<CallToolResultFrame, { name: string }>({ idPrefix: "call" });
  /** undefined until hello_ack; then whether the host advertised `call_tool`. */
  private supported: boolean | undefined;

  constructor(private readonly options: CallToolClientOptions) {}

  /** Records the host's capabilities from hello_ack. */
  setHostCapabilities(capabilities: readonly string[]): void {
    this.supported = capabilities.includes("call_tool");
  }

  call(name: string, args: JsonObject = {}, options: CallToolOptions & { parentId?: string } = {}): Promise<CallToolResult> {
    const refuse = (code: CallToolError["code"], message: string, cause?: unknown): Promise<never> =>
      Promise.reject(new CallToolError(code, `call_tool ${name}: ${message}`, { cause }));
    if (typeof name !== "string" || name === "") return refuse("invalid", "the tool name must be a non-empty string");
    if (!isJsonObject(args)) return refuse("invalid", "args must be a JSON object");
    const closedReason = this.pending.closedReason;
    if (closedReason !== undefined) return refuse("disconnected", closedReason);
    if (this.supported === undefined) return refuse("unsupported", "the host has not acknowledged hello yet");
    if (!this.supported) return refuse("unsupported", "the host does not support call_tool (no capability in hello_ack)");
    const { signal } = options;
    if (signal?.aborted) return refuse("cancelled", "cancelled before it was sent", signal.reason);

    const id = this.pending.newId();
    const frame: OutboundFrame = { type: "call_tool", id, name, args };
    if (options.parentId !== undefined) frame.parent_id = options.parentId;
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? CALL_TOOL_TIMEOUT_MS;
    return new Promise<CallToolResult>((resolve, reject) => {
      const request = this.pending.open({
        id, meta: { name }, timeoutMs, signal,
        onSettle: (settlement) => {
          if (settlement.ok) return resolve(resultOf(settlement.reply, name));
          // Abandoned by this side: the host may still be running it.
          if (settlement.reason === "timeout" || settlement.reason === "aborted") this.options.send({ type: "call_tool_cancel", id });
          reject(errorOf(settlement, name, id, timeoutMs));
        },
      });
      let sent: boolean;
      try {
        sent = this.options.send(frame);
      } catch (err) {
        request.fail("failed", "not sent", new CallToolError("invalid", `call_tool ${name}: ${(err as Error).message}`));
        return;
      }
      if (!sent) request.fail("failed", "not sent", new CallToolError("disconnected", `call_tool ${name}: the host is gone`));
    });
  }

  /** Settles the request a host `tool_result` answers; false for an id that is not pending. */
  settle(frame: CallToolResultFrame): boolean {
    return this.pending.resolve(frame.id, frame);
  }

  /** Fails every outstanding request and refuses new ones (shutdown, EOF). */
  close(reason: string): void {
    this.pending.close(reason);
  }
}

function resultOf(frame: CallToolResultFrame, name: string): CallToolResult {
  return { name: frame.name ?? name, content: frame.content, isError: frame.is_error, truncated: frame.truncated ?? false };
}

function errorOf(failure: Failure, name: string, id: string, timeoutMs: number): CallToolError {
  switch (failure.reason) {
    case "timeout":
      return new CallToolError("timeout", `call_tool ${name}: no result within ${timeoutMs} ms`);
    case "aborted":
      return new CallToolError("cancelled", `call_tool ${name}: cancelled`, { cause: failure.cause });
    case "closed":
      return new CallToolError("disconnected", `call_tool ${name} (${id}): ${failure.message}`);
    case "failed":
      return failure.cause as CallToolError; // set by call() above, already worded
  }
}
