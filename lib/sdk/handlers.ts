// Runs command and tool handlers, each concurrently on its own promise so a slow tool never
// holds up a command. Every request gets exactly one reply (unless the host abandoned it):
// a handler that throws or returns something unusable becomes an error reply, never a crash.
import type { CommandInvokedFrame, ToolCallFrame } from "../protocol/index.ts";
import type { CallToolClient } from "./call-tool.ts";
import { describeError, HandlerAbortedError, OutboundFrameError, type AbortCause } from "./errors.ts";
import type { HandlerRegistry } from "./registry.ts";
import { commandResponseFrame, noop } from "./responses.ts";
import { errorResult, toolResultFrame } from "./results.ts";
import type { CallToolOptions, HandlerContext, HostInfo, JsonObject } from "./types.ts";
import type { OutboundFrame } from "./writer.ts";

export interface HandlerRunnerDeps {
  registry: HandlerRegistry;
  calls: CallToolClient;
  /** Writes a reply; throws OutboundFrameError for a frame that would break the protocol. */
  send(frame: OutboundFrame): boolean;
  log(message: string): void;
  host(): HostInfo;
}

/** The signal that aborts when either does (the caller's own, or the tool call's). */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  return a ? AbortSignal.any([a, b]) : b;
}

const stackOf = (err: unknown): string => (err instanceof Error && err.stack ? err.stack : describeError(err));

export class HandlerRunner {
  /** Running tool calls by host id; registered before the handler starts so an immediate
   * `tool_cancel` finds it. */
  private readonly tools = new Map<string, AbortController>();
  private readonly commands = new Set<AbortController>();

  constructor(private readonly deps: HandlerRunnerDeps) {}

  command(frame: CommandInvokedFrame): void {
    const entry = this.deps.registry.findCommand(frame.name);
    if (!entry) {
      this.reply(commandResponseFrame(frame.id, noop(`no handler for /${frame.name}`)));
      return;
    }
    const controller = new AbortController();
    this.commands.add(controller);
    const ctx = this.context(frame.id, entry.name, controller.signal);
    void (async () => {
      const failed = (err: unknown): OutboundFrame =>
        commandResponseFrame(frame.id, noop(`/${entry.name} failed: ${describeError(err)}`));
      let out: OutboundFrame;
      try {
        const response = await entry.handler(frame.args, ctx);
        out = commandResponseFrame(frame.id, response === undefined ? noop() : response);
      } catch (err) {
        this.deps.log(`/${entry.name} failed: ${stackOf(err)}`);
        out = failed(err);
      } finally {
        this.commands.delete(controller);
      }
      this.reply(out, failed);
    })();
  }

  tool(frame: ToolCallFrame): void {
    const entry = this.deps.registry.tools.get(frame.name);
    if (!entry) {
      this.reply(toolResultFrame(frame.id, errorResult(`no handler for tool "${frame.name}"`)));
      return;
    }
    if (this.tools.has(frame.id)) {
      this.deps.log(`ignored a second tool_call with the running id ${frame.id}`);
      return;
    }
    const controller = new AbortController();
    this.tools.set(frame.id, controller);
    const { signal } = controller;
    const ctx = this.context(frame.id, entry.name, signal, frame.id);
    void (async () => {
      const failed = (err: unknown): OutboundFrame =>
        toolResultFrame(frame.id, errorResult(`${entry.name} failed: ${describeError(err)}`));
      let out: OutboundFrame;
      try {
        out = toolResultFrame(frame.id, await entry.handler(frame.args, ctx));
      } catch (err) {
        if (!signal.aborted) this.deps.log(`tool ${entry.name} failed: ${stackOf(err)}`);
        out = failed(err);
      } finally {
        this.tools.delete(frame.id);
      }
      if (signal.aborted) {
        // The host abandoned the call and ignores late results; say nothing.
        this.deps.log(`tool ${entry.name} (${frame.id}) ended after cancellation; result discarded`);
        return;
      }
      this.reply(out, failed);
    })();
  }

  /** `tool_cancel`: aborts the call's signal. Unknown or finished ids are ignored. */
  cancel(id: string): void {
    this.tools.get(id)?.abort(new HandlerAbortedError("tool_cancel"));
  }

  /** Shutdown or EOF: aborts every running handler. */
  abortAll(cause: AbortCause): void {
    for (const controller of [...this.tools.values(), ...this.commands]) controller.abort(new HandlerAbortedError(cause));
  }

  private context(id: string, name: string, signal: AbortSignal, parentId?: string): HandlerContext {
    const { calls } = this.deps;
    return {
      id,
      name,
      signal,
      host: this.deps.host(),
      callTool: (tool: string, args?: JsonObject, options: CallToolOptions = {}) =>
        calls.call(tool, args, {
          timeoutMs: options.timeoutMs,
          // Nested calls of a tool end with it; a command's calls are the caller's to cancel.
          signal: parentId === undefined ? options.signal : eitherSignal(options.signal, signal),
          parentId,
        }),
    };
  }

  /** Sends `frame`; if the SDK refuses it (too large, invalid field), sends `fallback(error)`.
   * Never throws: it runs at the end of detached handler promises. */
  private reply(frame: OutboundFrame, fallback?: (err: unknown) => OutboundFrame): void {
    try {
      this.deps.send(frame);
    } catch (err) {
      this.deps.log(describeError(err));
      if (!(err instanceof OutboundFrameError) || !fallback) return;
      try {
        this.deps.send(fallback(err));
      } catch (again) {
        this.deps.log(`the error reply failed too: ${describeError(again)}`);
      }
    }
  }
}
