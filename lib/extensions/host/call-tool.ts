// Host-mediated `call_tool`: an extension asks the host to run a tool (built-in or another
// extension's) through the agent's normal guards and confirmation policy. Chains are traced by
// `parent_id` (the host `tool_call` the caller is handling): cancellation of the parent reaches
// the nested call, a chain never repeats a tool name and holds at most four calls. Without a
// parent, a call is refused while the extension has a host-invoked tool running, so recursion
// cannot hide. Results are bounded to 256 KiB; calls time out after 60 s or end on disconnect.
// Outstanding requests are the protocol's PendingRequests, one set per calling extension.
import { CALL_TOOL_MAX_CHAIN, CALL_TOOL_RESULT_MAX_BYTES } from "../../protocol/limits.ts";
import { PendingRequests, type Settlement } from "../../protocol/pending-requests.ts";
import type { CallToolFrame } from "../../protocol/extension-frames.ts";
import type { ToolOutcome } from "../../tools/types.ts";
import { observeContent } from "../../agent/loop/observation.ts";
import type { LoadedExtension } from "../runtime/extension.ts";
import type { ActiveCalls } from "./tool-proxy.ts";
import { fileToolRefusal } from "./call-tool-paths.ts";

export type RunTool = (name: string, args: Record<string, unknown>,
  ctx: { originExtension: string; parentId?: string; signal: AbortSignal }) => Promise<ToolOutcome>;

export interface CallToolDeps {
  activeCalls: ActiveCalls;
  timeoutMs: () => number;
  runTool: RunTool;
  /** The session's working directory, which file tools resolve relative paths against. */
  cwd: () => string;
}

/** The tool_result a call_tool request is answered with. */
interface Answer {
  content: ToolOutcome["content"];
  isError: boolean;
  truncated?: boolean;
}

export class CallToolRouter {
  private readonly outstanding = new Map<LoadedExtension, PendingRequests<Answer>>();

  constructor(private readonly deps: CallToolDeps) {}

  /** Handles one `call_tool` frame; the reply is sent on the caller's connection. */
  handle(ext: LoadedExtension, frame: CallToolFrame): void {
    const reply = (content: ToolOutcome["content"], isError: boolean, truncated = false) => {
      ext.driver.deliver({ type: "tool_result", id: frame.id, name: frame.name, content, is_error: isError,
        ...(truncated ? { truncated: true } : {}) });
    };
    const refuse = (why: string) => {
      ext.log(`call_tool ${frame.id} (${frame.name}) refused: ${why}`);
      reply([{ type: "text", text: `call_tool refused: ${why}` }], true);
    };
    if (!ext.capabilities.has("call_tool")) return refuse('the extension did not advertise the "call_tool" capability in hello');
    const mine = this.outstanding.get(ext) ?? new PendingRequests<Answer>();
    this.outstanding.set(ext, mine);
    if (mine.get(frame.id)) return refuse(`a call_tool request with id "${frame.id}" is already outstanding`);

    let chain: string[] = [];
    let parentSignal: AbortSignal | undefined;
    if (frame.parent_id !== undefined) {
      const parent = this.deps.activeCalls.get(frame.parent_id);
      if (!parent || parent.extension !== ext) return refuse(`unknown or expired parent_id "${frame.parent_id}"`);
      chain = parent.chain;
      parentSignal = parent.signal;
    } else if (this.deps.activeCalls.hasActive(ext)) {
      return refuse("a tool of this extension invoked by the host is still running; " +
        "set parent_id to its tool_call id to call tools from inside a tool handler");
    }
    const outside = fileToolRefusal(frame.name, frame.args ?? {}, ext.driver.isolation, this.deps.cwd());
    if (outside) return refuse(`not permitted: ${ext.name} may not have ${frame.name} touch ${outside}`);
    if (chain.includes(frame.name)) return refuse(`tool ${frame.name} already appears in this call chain (${chain.join(" → ")})`);
    if (chain.length + 1 > CALL_TOOL_MAX_CHAIN) {
      return refuse(`a call chain holds at most ${CALL_TOOL_MAX_CHAIN} tool calls (${[...chain, frame.name].join(" → ")})`);
    }

    const controller = new AbortController();
    const signal = parentSignal ? AbortSignal.any([controller.signal, parentSignal]) : controller.signal;
    const timeoutMs = this.deps.timeoutMs();
    const request = mine.open({
      id: frame.id,
      timeoutMs,
      signal: parentSignal,
      onSettle: (settlement) => {
        // A cancelled or disconnected call is answered before the tool hears of the abort.
        const stopped = !settlement.ok && (settlement.reason === "closed" || settlement.cause instanceof CallToolCancelled);
        // A TimeoutError reason: the callee's tool_result then says timed_out, not cancelled.
        const timedOut = !settlement.ok && settlement.reason === "timeout";
        if (!stopped && !controller.signal.aborted) {
          controller.abort(timedOut ? new DOMException(`call_tool ${frame.name} timed out after ${timeoutMs} ms`, "TimeoutError") : undefined);
        }
        const answer = settlement.ok ? settlement.reply : failureAnswer(frame.name, settlement, timeoutMs);
        reply(answer.content, answer.isError, answer.truncated);
        if (stopped) controller.abort(new CallToolCancelled());
      },
    });

    this.deps.runTool(frame.name, frame.args ?? {}, { originExtension: ext.name, parentId: frame.parent_id, signal })
      .then((outcome) => {
        const bounded = observeContent(outcome.content ?? [], { maxBytes: CALL_TOOL_RESULT_MAX_BYTES, maxBlocks: Infinity });
        request.resolve({ content: bounded.content, isError: outcome.isError === true, truncated: bounded.truncated });
      }, (err: unknown) => {
        request.resolve({ content: [{ type: "text", text: `call_tool ${frame.name} failed: ${(err as Error)?.message ?? String(err)}` }],
          isError: true });
      });
  }

  /** How many call_tool requests of `ext` are outstanding. */
  inFlight(ext: LoadedExtension): number {
    return this.outstanding.get(ext)?.size ?? 0;
  }

  /** `call_tool_cancel`: aborts the request; its reply says it was cancelled. */
  cancel(ext: LoadedExtension, id: string): void {
    this.outstanding.get(ext)?.fail(id, "aborted", "cancelled", new CallToolCancelled());
  }

  /** The extension went away: abort everything it had outstanding (no replies can be sent). */
  disconnect(ext: LoadedExtension): void {
    const mine = this.outstanding.get(ext);
    this.outstanding.delete(ext);
    mine?.close("the extension went away");
  }
}

function failureAnswer(name: string, settlement: Extract<Settlement<Answer>, { ok: false }>, timeoutMs: number): Answer {
  const text = settlement.reason === "timeout" ? `call_tool ${name} timed out after ${timeoutMs} ms`
    : settlement.reason === "aborted" && !(settlement.cause instanceof CallToolCancelled)
      ? `call_tool ${name} was cancelled with its parent tool call`
      : `call_tool ${name} was cancelled`;
  return { content: [{ type: "text", text }], isError: true };
}

class CallToolCancelled extends Error {
  constructor() {
    super("call_tool cancelled");
  }
}
