// Outstanding `call_tool` requests: correlation by id, timeout and cancellation (both send
// `call_tool_cancel`), and every pending request settled when the host goes away.
import { CALL_TOOL_TIMEOUT_MS, type CallToolResultFrame } from "../protocol/index.ts";
import { CallToolError } from "./errors.ts";
import { isPlainObject } from "./responses.ts";
import type { CallToolOptions, CallToolResult, JsonObject } from "./types.ts";
import type { OutboundFrame } from "./writer.ts";

interface Pending {
  name: string;
  resolve(result: CallToolResult): void;
  fail(error: CallToolError): void;
}

export interface CallToolClientOptions {
  /** Writes a frame; false when the connection is closed. */
  send(frame: OutboundFrame): boolean;
  defaultTimeoutMs?: number;
}

export class CallToolClient {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  /** undefined until hello_ack; then whether the host advertised `call_tool`. */
  private supported: boolean | undefined;
  private closedReason: string | undefined;

  constructor(private readonly options: CallToolClientOptions) {}

  /** Records the host's capabilities from hello_ack. */
  setHostCapabilities(capabilities: readonly string[]): void {
    this.supported = capabilities.includes("call_tool");
  }

  call(name: string, args: JsonObject = {}, options: CallToolOptions & { parentId?: string } = {}): Promise<CallToolResult> {
    const refuse = (code: CallToolError["code"], message: string, cause?: unknown): Promise<never> =>
      Promise.reject(new CallToolError(code, `call_tool ${name}: ${message}`, { cause }));
    if (typeof name !== "string" || name === "") return refuse("invalid", "the tool name must be a non-empty string");
    if (!isPlainObject(args)) return refuse("invalid", "args must be a JSON object");
    if (this.closedReason !== undefined) return refuse("disconnected", this.closedReason);
    if (this.supported === undefined) return refuse("unsupported", "the host has not acknowledged hello yet");
    if (!this.supported) return refuse("unsupported", "the host does not support call_tool (no capability in hello_ack)");
    const { signal } = options;
    if (signal?.aborted) return refuse("cancelled", "cancelled before it was sent", signal.reason);

    const id = `call-${++this.seq}`;
    const frame: OutboundFrame = { type: "call_tool", id, name, args };
    if (options.parentId !== undefined) frame.parent_id = options.parentId;
    return new Promise<CallToolResult>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? CALL_TOOL_TIMEOUT_MS;
      const cleanup = (): void => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const abandon = (error: CallToolError): void => {
        if (!this.pending.has(id)) return;
        cleanup();
        this.options.send({ type: "call_tool_cancel", id });
        reject(error);
      };
      const onAbort = (): void =>
        abandon(new CallToolError("cancelled", `call_tool ${name}: cancelled`, { cause: signal?.reason }));
      const timer = setTimeout(
        () => abandon(new CallToolError("timeout", `call_tool ${name}: no result within ${timeoutMs} ms`)),
        timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        name,
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      });
      let sent: boolean;
      try {
        sent = this.options.send(frame);
      } catch (err) {
        this.pending.get(id)?.fail(new CallToolError("invalid", `call_tool ${name}: ${(err as Error).message}`));
        return;
      }
      if (!sent) this.pending.get(id)?.fail(new CallToolError("disconnected", `call_tool ${name}: the host is gone`));
    });
  }

  /** Settles the request a host `tool_result` answers; false for an unknown id. */
  settle(frame: CallToolResultFrame): boolean {
    const pending = this.pending.get(frame.id);
    if (!pending) return false;
    pending.resolve({
      name: frame.name ?? pending.name,
      content: frame.content,
      isError: frame.is_error,
      truncated: frame.truncated ?? false,
    });
    return true;
  }

  /** Fails every outstanding request and refuses new ones (shutdown, EOF). */
  close(reason: string): void {
    this.closedReason = reason;
    for (const [id, pending] of [...this.pending]) {
      pending.fail(new CallToolError("disconnected", `call_tool ${pending.name} (${id}): ${reason}`));
    }
  }
}
