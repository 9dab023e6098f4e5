// Extension tools as `Tool` objects: `execute` sends `tool_call` to the owning extension and
// waits for its `tool_result`. Never throws: a dead extension, a timeout (60 s unless the tool is
// interactive), a cancellation or a bad reply become typed outcomes. `tool_cancel` goes only to
// extensions that advertised it, and only for a request that was actually delivered. Late
// results are dropped by the connection (their id is no longer pending).
import { splitSupportedBlocks, type ToolCallFrame, type ToolResultFrame } from "../../protocol/index.ts";
import { errorOutcome, type Tool, type ToolExecutionContext, type ToolOutcome } from "../../tools/types.ts";
import type { ExtensionBridge, LoadedExtension } from "../runtime/extension.ts";
import { capToolOutput } from "../runtime/output-cap.ts";
import type { ExtensionToolEntry } from "./registry.ts";

/** A host `tool_call` in flight, by its correlation id; the parent of nested call_tool chains. */
export interface ActiveCall {
  id: string;
  extension: LoadedExtension;
  /** Tool names of the chain, outermost first, this call's own name last. */
  chain: string[];
  signal: AbortSignal;
  /** An interactive tool's call: while it runs, its extension may open panels by rendering them. */
  interactive: boolean;
}

export class ActiveCalls {
  private readonly byId = new Map<string, ActiveCall>();

  get(id: string): ActiveCall | undefined {
    return this.byId.get(id);
  }

  add(call: ActiveCall): void {
    this.byId.set(call.id, call);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** Whether a host-invoked tool of `ext` is running (un-parented call_tool is then refused). */
  hasActive(ext: LoadedExtension, options: { interactive?: boolean } = {}): boolean {
    for (const call of this.byId.values()) {
      if (call.extension === ext && (!options.interactive || call.interactive)) return true;
    }
    return false;
  }
}

export interface ToolProxyDeps {
  interactive: boolean;
  toolCallTimeoutMs: number;
  /** The most text of one result the model gets. */
  maxOutputBytes: number;
  activeCalls: ActiveCalls;
  /** Deferred tools named by a result become active. */
  activate(names: string[]): void;
}

const EMPTY_SCHEMA = { type: "object", properties: {} };

export function createToolProxy(entry: ExtensionToolEntry, deps: ToolProxyDeps): Tool {
  const { frame, extension } = entry;
  const interactive = frame.interactive === true;
  return {
    name: frame.name,
    description: frame.description ?? "",
    schema: frame.schema ?? EMPTY_SCHEMA,
    source: { kind: "extension", extension: extension.name },
    deferred: frame.deferred === true,
    interactive,
    execute: async (args, ctx) => {
      const outcome = await runExtensionTool(entry, args, ctx, deps);
      // The model's calls are capped; an extension's call_tool gets the protocol's own 256 KiB bound.
      if (ctx.originExtension !== undefined) return outcome;
      return capToolOutput(outcome, deps.maxOutputBytes, `${extension.bridge ? "MCP" : "Extension"} tool ${frame.name}`);
    },
  };
}

function attributed(outcome: ToolOutcome, ext: LoadedExtension): ToolOutcome {
  return { ...outcome, details: { ...outcome.details, extension: ext.name } };
}

/** A tool of a bridged extension (an MCP server): the bridge calls it; the chain bookkeeping is the same. */
async function runBridgedTool(bridge: ExtensionBridge, entry: ExtensionToolEntry, args: Record<string, unknown>,
  ctx: ToolExecutionContext, deps: ToolProxyDeps): Promise<ToolOutcome> {
  const id = `bridged-${++bridgedCalls}`;
  const parent = ctx.parentId !== undefined ? deps.activeCalls.get(ctx.parentId) : undefined;
  deps.activeCalls.add({ id, extension: entry.extension, chain: [...(parent?.chain ?? []), entry.frame.name], signal: ctx.signal,
    interactive: false });
  try {
    return await bridge.callTool(entry.frame.name, args, { signal: ctx.signal, timeoutMs: deps.toolCallTimeoutMs,
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) });
  } finally {
    deps.activeCalls.delete(id);
  }
}

let bridgedCalls = 0;

async function runExtensionTool(entry: ExtensionToolEntry, args: Record<string, unknown>, ctx: ToolExecutionContext,
  deps: ToolProxyDeps): Promise<ToolOutcome> {
  const { frame, extension: ext } = entry;
  // Named in failures only; built lazily, since a call that succeeds never needs it.
  const who = () => `tool ${frame.name} (extension "${ext.name}")`;
  if (!ext.alive || (!ext.conn && !ext.bridge)) {
    return attributed(errorOutcome(`${who()} is unavailable: the extension is not running. See \`zot ext doctor\`.`), ext);
  }
  const interactive = frame.interactive === true;
  if (interactive && !deps.interactive) {
    return attributed(errorOutcome(`${who()} is interactive: it needs to ask the user, and this mode has no interactive ` +
      "support. Do not call it again in this session."), ext);
  }
  if (ctx.signal.aborted) return attributed(errorOutcome(`${who()} was cancelled before it started`, "cancelled"), ext);
  if (ext.bridge) return attributed(await runBridgedTool(ext.bridge, entry, args, ctx, deps), ext);
  const conn = ext.conn!;
  const id = conn.newId("tool");
  const parent = ctx.parentId !== undefined ? deps.activeCalls.get(ctx.parentId) : undefined;
  deps.activeCalls.add({ id, extension: ext, chain: parent ? [...parent.chain, frame.name] : [frame.name], signal: ctx.signal,
    interactive });
  const request: ToolCallFrame = { type: "tool_call", id, name: frame.name, args };
  try {
    const reply = await conn.request<ToolResultFrame>(request, "tool_result", {
      timeoutMs: interactive ? null : deps.toolCallTimeoutMs,
      signal: ctx.signal,
    });
    if (reply.ok) {
      const result = reply.frame;
      if (result.activate_tools?.length) deps.activate(result.activate_tools);
      const { blocks, unsupported } = splitSupportedBlocks(result.content ?? []);
      for (const type of unsupported) ext.log(`tool_result ${id} (${frame.name}): content block of type "${type}" is not supported; omitted`);
      const outcome: ToolOutcome = {
        content: blocks.map((b) =>
          b.type === "text" ? { type: "text", text: b.text } : { type: "image", mime_type: b.mime_type, data: b.data }),
        isError: result.is_error === true,
        status: result.is_error === true ? "failed" : "completed",
        ...(result.activate_tools?.length ? { activateTools: result.activate_tools } : {}),
        details: { extension: ext.name },
      };
      return outcome;
    }
    if ((reply.reason === "timeout" || reply.reason === "cancelled") && ext.capabilities.has("tool_cancel")) {
      // Only a delivered call is cancelled; a write that completes after the cancel counts.
      void reply.written.then((written) => written && conn.send({ type: "tool_cancel", id }));
    }
    switch (reply.reason) {
      case "timeout":
        ext.log(`tool_call ${id} (${frame.name}) timed out after ${deps.toolCallTimeoutMs} ms`);
        return attributed(errorOutcome(`${who()} did not reply within ${deps.toolCallTimeoutMs} ms`, "timed_out"), ext);
      case "cancelled":
        return attributed(errorOutcome(`${who()} was cancelled`, "cancelled"), ext);
      case "invalid":
        return attributed(errorOutcome(`${who()} sent an invalid tool_result: ${reply.message}`), ext);
      case "unsendable":
        return attributed(errorOutcome(`${who()} was not called: ${reply.message}. The extension is still running; `
          + "call it again with smaller arguments."), ext);
      default:
        return attributed(errorOutcome(`${who()} failed: the extension stopped (${reply.message})`), ext);
    }
  } finally {
    deps.activeCalls.delete(id);
  }
}
