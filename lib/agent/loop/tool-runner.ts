// One client tool call from proposal to terminal outcome, in the spec's order: synchronous
// interception (block / rewrite), tool_confirmation_requested when actually asking,
// permission_decision, execution (tool_progress), then tool_result. Every path ends in exactly
// one tool_result event and never throws: failure is data (status + executed + content).
import { isAbortError, raceAbort } from "./abort.ts";
import type { Emitter } from "../contracts/emitter.ts";
import type { AgentHooks, InterceptedToolCall, InterceptedToolResult, ToolResultInput } from "../contracts/hooks.ts";
import type { Admission, SettledToolCall, ToolCallRequest } from "../contracts/tool-call.ts";
import { observeResult } from "./observation.ts";
import type { PermissionPolicy } from "./permissions.ts";
import type { Tool, ToolContent, ToolOutcome, ToolStatus } from "../../tools/types.ts";
import { isJsonObject } from "../../protocol/json-object.ts";

/** An Admission that runs stages strictly one after another. */
export function serialAdmission(): Admission {
  let tail: Promise<unknown> = Promise.resolve();
  return (stage) => {
    const run = tail.then(stage, stage);
    tail = run.catch(() => undefined);
    return run;
  };
}

export interface ToolRunEnv {
  cwd: string;
  /** The tools callable right now, by name. */
  tools: () => ReadonlyMap<string, Tool>;
  hooks: AgentHooks;
  permissions: PermissionPolicy;
  emit: Emitter;
  signal: AbortSignal;
  /** False in hosts that cannot show an interactive tool's panel: such calls fail. */
  interactiveTools?: boolean;
  /** Receives the names a tool result activates (deferred extension tools). */
  onActivateTools?: (names: string[]) => void;
  /** Around each execution (after admission): what checkpoints record of the files a call may change. */
  execution?: ToolExecutionObserver;
}

export interface ToolExecutionObserver {
  before(toolName: string, args: Record<string, unknown>, cwd: string): Promise<void>;
  after(toolName: string): Promise<void>;
}

export async function runToolCall(call: ToolCallRequest, env: ToolRunEnv): Promise<SettledToolCall> {
  // The event payloads below are written out as they are: snake_case, origin only when set.
  const origin = call.originExtension !== undefined ? { origin_extension: call.originExtension } : {};
  const finish = (args: Record<string, unknown>, outcome: Omit<SettledToolCall, "toolId" | "toolName" | "args">, raw?: string) => {
    const observed = observeResult(outcome.content, outcome.details?.diff);
    env.emit.lifecycle({
      type: "tool_result",
      tool_id: call.toolId,
      tool_name: call.toolName,
      ...(raw !== undefined ? { tool_args_raw: raw } : { tool_args: args }),
      status: outcome.status,
      executed: outcome.executed,
      result: {
        content: observed.content,
        is_error: outcome.isError,
        ...(observed.diff !== undefined ? { diff: observed.diff } : {}),
        ...(observed.truncated || outcome.details?.diff_truncated === true ? { truncated: true } : {}),
      },
      ...origin,
    });
    return { toolId: call.toolId, toolName: call.toolName, args, ...outcome };
  };
  const refuse = (args: Record<string, unknown>, status: ToolStatus, text: string, raw?: string) =>
    finish(args, { content: [{ type: "text", text }], isError: true, status, executed: false }, raw);
  /** The interceptors that rewrote the call's arguments: named in every decision about it. */
  let rewrittenBy: string[] | undefined;
  let interception: InterceptedToolCall["permission"];
  /** What tool_call interceptors added for the model, given after the result. */
  let callContext: string[] = [];
  const decide = (decision: "approved" | "denied" | "cancelled", source: "user" | "remembered" | "policy" | "yolo", stage: "pre_execution" | "tool_execution", reason?: string) =>
    env.emit.lifecycle({
      type: "permission_decision",
      tool_id: call.toolId,
      tool_name: call.toolName,
      decision,
      source,
      stage,
      ...(reason !== undefined ? { reason } : {}),
      ...(rewrittenBy ? { rewritten_by: rewrittenBy } : {}),
      ...origin,
    });

  // A deadline (a call_tool timeout) aborts with a TimeoutError: such a stop is timed_out.
  const stopped = (): ToolStatus => (isTimeout(env.signal.reason) ? "timed_out" : "cancelled");
  if (env.signal.aborted) return refuse(call.args, stopped(), `${call.toolName} was ${stopped() === "timed_out" ? "timed out" : "cancelled"} before it ran.`);

  const tools = env.tools();
  const tool = tools.get(call.toolName);
  if (!tool) {
    const names = [...tools.keys()];
    const available = names.length ? names.join(", ") : "(none)";
    return refuse(call.args, "failed", `Unknown tool "${call.toolName}". Available tools: ${available}.`);
  }
  if (call.argsRaw !== undefined) {
    return refuse(
      call.args,
      "failed",
      `The arguments for ${call.toolName} were not a valid JSON object: ${excerpt(call.argsRaw)}\n` +
        "Call the tool again with one JSON object that matches its schema.",
      call.argsRaw,
    );
  }

  // Interception, confirmation and permission: the refused outcome, or the effective arguments.
  const admit = async (proposed: Record<string, unknown>): Promise<{ refused: SettledToolCall } | { args: Record<string, unknown> }> => {
    let args = proposed;
    try {
      const verdict = await raceAbort(
        env.hooks.interceptToolCall({
          toolId: call.toolId, toolName: call.toolName, toolArgs: call.args,
          ...(call.originExtension !== undefined ? { originExtension: call.originExtension } : {}),
        }, env.signal),
        env.signal,
      );
      if (isJsonObject(verdict.args)) args = verdict.args;
      if (verdict.rewrittenBy?.length) rewrittenBy = verdict.rewrittenBy;
      interception = verdict.permission;
      callContext = verdict.context ?? [];
      if (verdict.block) {
        const reason = verdict.reason?.trim() ? verdict.reason : `${call.toolName} was blocked by an extension.`;
        decide("denied", "policy", "pre_execution", reason);
        return { refused: refuse(args, "blocked", reason) };
      }
    } catch (err) {
      if (isAbortError(err)) return { refused: refuse(args, stopped(), `${call.toolName} was ${stopped() === "timed_out" ? "timed out" : "cancelled"} before it ran.`) };
      // Hooks never throw by contract; an exception here is the fail-open "allow, unchanged".
    }

    if (tool.interactive && !env.interactiveTools) {
      return { refused: refuse(args, "failed", `${call.toolName} needs interactive input, which this mode cannot show. Do not call it here.`) };
    }

    const verdict = await env.permissions.decide({
      toolId: call.toolId,
      toolName: call.toolName,
      toolArgs: args,
      ...(call.originExtension !== undefined ? { originExtension: call.originExtension } : {}),
      preview: () => previewOf(tool, args),
      ...(tool.change ? { change: () => tool.change!(args) } : {}),
      onAsk: (preview) => env.emit.lifecycle({
        type: "tool_confirmation_requested", tool_id: call.toolId, tool_name: call.toolName, tool_preview: preview, ...origin,
      }),
      signal: env.signal,
      ...(interception ? { interception } : {}),
      answerFirst: (preview) => env.hooks.interceptConfirmation({ toolId: call.toolId, toolName: call.toolName, toolArgs: args, preview }, env.signal),
    });
    decide(verdict.decision, verdict.source, "pre_execution", verdict.reason);
    if (verdict.decision === "denied") return { refused: refuse(args, "blocked", `${call.toolName} was not run: ${verdict.reason ?? "permission denied"}.`) };
    if (verdict.decision === "cancelled") return { refused: refuse(args, "cancelled", `${call.toolName} was not run: ${verdict.reason ?? "cancelled"}.`) };
    return { args };
  };
  const admitted = await (call.admission ?? ((stage) => stage()))(() => admit(call.args));
  if ("refused" in admitted) return admitted.refused;
  const args = admitted.args;

  let outcome: ToolOutcome;
  await env.execution?.before(call.toolName, args, env.cwd);
  try {
    outcome = await tool.execute(args, {
      cwd: env.cwd,
      signal: env.signal,
      onProgress: (text) => env.emit.host({ type: "tool_progress", tool_id: call.toolId, text }),
      toolId: call.toolId,
      ...(call.originExtension !== undefined ? { originExtension: call.originExtension } : {}),
      ...(call.parentId !== undefined ? { parentId: call.parentId } : {}),
    });
  } catch (err) {
    // Tools never throw by contract; classify a broken one as failed, or cancelled if we asked it to stop.
    const status: ToolStatus = env.signal.aborted ? stopped() : "failed";
    const text = status !== "failed" ? `${call.toolName} was ${status === "timed_out" ? "timed out" : "cancelled"}.` : `${call.toolName} failed unexpectedly: ${(err as Error)?.message ?? String(err)}`;
    return finish(args, { content: [{ type: "text", text }], isError: true, status, executed: true });
  } finally {
    await env.execution?.after(call.toolName);
  }

  let status: ToolStatus = outcome.status ?? (outcome.isError ? "failed" : "completed");
  if (status === "cancelled" && env.signal.aborted) status = stopped();
  const isError = outcome.isError ?? status !== "completed";
  if (status === "blocked" && outcome.details?.policy !== undefined) {
    decide("denied", "policy", "tool_execution", textOf(outcome.content) || `${call.toolName} refused by ${String(outcome.details.policy)} policy`);
  }
  if (outcome.activateTools?.length) env.onActivateTools?.(outcome.activateTools);
  const content = await interceptedContent(Array.isArray(outcome.content) ? outcome.content : [], callContext, {
    toolId: call.toolId, toolName: call.toolName, toolArgs: args, status, isError,
    ...(call.originExtension !== undefined ? { originExtension: call.originExtension } : {}),
  }, env);
  return finish(args, {
    content,
    isError,
    status,
    executed: true,
    ...(outcome.activateTools ? { activateTools: outcome.activateTools } : {}),
    ...(outcome.details ? { details: outcome.details } : {}),
  });
}

/**
 * The content the model gets for an executed call: what tool_result interceptors made of the
 * tool's output, then the context tool_call and tool_result interceptors added, as text blocks.
 */
async function interceptedContent(content: ToolContent[], callContext: string[],
  result: Omit<ToolResultInput, "content">, env: ToolRunEnv): Promise<ToolContent[]> {
  let intercepted: InterceptedToolResult = { content };
  try {
    intercepted = await raceAbort(env.hooks.interceptToolResult({ ...result, content }, env.signal), env.signal);
  } catch {
    // Cancelled while interceptors looked at it: the tool's own output stands.
  }
  const context = [...callContext, ...(intercepted.context ?? [])];
  return [...intercepted.content, ...context.map((text) => ({ type: "text" as const, text }))];
}

/** The one-line preview for confirmations: the tool's own, else its arguments as JSON. */
export function previewOf(tool: Tool, args: Record<string, unknown>): string {
  if (tool.preview) return tool.preview(args);
  return excerpt(JSON.stringify(args), 160);
}

function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function textOf(content: readonly ToolContent[]): string {
  return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function isTimeout(reason: unknown): boolean {
  return typeof reason === "object" && reason !== null && (reason as { name?: unknown }).name === "TimeoutError";
}
