// One client tool call from proposal to terminal outcome, in the spec's order: synchronous
// interception (block / rewrite), tool_confirmation_requested when actually asking,
// permission_decision, execution (tool_progress), then tool_result. Every path ends in exactly
// one tool_result event and never throws: failure is data (status + executed + content).
import { isAbortError, raceAbort } from "./abort.ts";
import type { AgentHooks } from "./hooks.ts";
import { observeResult } from "./observation.ts";
import type { PermissionPolicy } from "./permissions.ts";
import type { Emitter } from "../session/emitter.ts";
import type { Tool, ToolContent, ToolOutcome, ToolStatus } from "../../tools/types.ts";
import { isJsonObject } from "../../protocol/json-object.ts";

export interface ToolCallRequest {
  tool_id: string;
  tool_name: string;
  /** Parsed arguments as proposed (`{}` when none). */
  args: Record<string, unknown>;
  /** The raw argument text when the model's arguments were not a JSON object. */
  args_raw?: string;
  origin_extension?: string;
  /** The host's correlation id of a parent extension tool call (nested `call_tool`). */
  parent_id?: string;
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
}

/** The terminal outcome of a call; `content` is the full result the model receives. */
export interface ToolRunOutcome {
  tool_id: string;
  tool_name: string;
  /** Effective arguments, or the last proposed ones for a call refused before execution. */
  args: Record<string, unknown>;
  content: ToolContent[];
  is_error: boolean;
  status: ToolStatus;
  executed: boolean;
  activate_tools?: string[];
  details?: Record<string, unknown>;
}

export async function runToolCall(call: ToolCallRequest, env: ToolRunEnv): Promise<ToolRunOutcome> {
  const origin = call.origin_extension !== undefined ? { origin_extension: call.origin_extension } : {};
  const finish = (args: Record<string, unknown>, outcome: Omit<ToolRunOutcome, "tool_id" | "tool_name" | "args">, raw?: string) => {
    const observed = observeResult(outcome.content, outcome.details?.diff);
    env.emit.lifecycle({
      type: "tool_result",
      tool_id: call.tool_id,
      tool_name: call.tool_name,
      ...(raw !== undefined ? { tool_args_raw: raw } : { tool_args: args }),
      status: outcome.status,
      executed: outcome.executed,
      result: {
        content: observed.content,
        is_error: outcome.is_error,
        ...(observed.diff !== undefined ? { diff: observed.diff } : {}),
        ...(observed.truncated || outcome.details?.diff_truncated === true ? { truncated: true } : {}),
      },
      ...origin,
    });
    return { tool_id: call.tool_id, tool_name: call.tool_name, args, ...outcome };
  };
  const refuse = (args: Record<string, unknown>, status: ToolStatus, text: string, raw?: string) =>
    finish(args, { content: [{ type: "text", text }], is_error: true, status, executed: false }, raw);
  const decide = (decision: "approved" | "denied" | "cancelled", source: "user" | "remembered" | "policy" | "yolo", stage: "pre_execution" | "tool_execution", reason?: string) =>
    env.emit.lifecycle({
      type: "permission_decision",
      tool_id: call.tool_id,
      tool_name: call.tool_name,
      decision,
      source,
      stage,
      ...(reason !== undefined ? { reason } : {}),
      ...origin,
    });

  // A deadline (a call_tool timeout) aborts with a TimeoutError: such a stop is timed_out.
  const stopped = (): ToolStatus => (isTimeout(env.signal.reason) ? "timed_out" : "cancelled");
  if (env.signal.aborted) return refuse(call.args, stopped(), `${call.tool_name} was ${stopped() === "timed_out" ? "timed out" : "cancelled"} before it ran.`);

  const tools = env.tools();
  const tool = tools.get(call.tool_name);
  if (!tool) {
    const names = [...tools.keys()];
    const available = names.length ? names.join(", ") : "(none)";
    return refuse(call.args, "failed", `Unknown tool "${call.tool_name}". Available tools: ${available}.`);
  }
  if (call.args_raw !== undefined) {
    return refuse(
      call.args,
      "failed",
      `The arguments for ${call.tool_name} were not a valid JSON object: ${excerpt(call.args_raw)}\n` +
        "Call the tool again with one JSON object that matches its schema.",
      call.args_raw,
    );
  }

  let args = call.args;
  try {
    const verdict = await raceAbort(
      env.hooks.interceptToolCall({ tool_id: call.tool_id, tool_name: call.tool_name, tool_args: call.args, ...origin }, env.signal),
      env.signal,
    );
    if (isJsonObject(verdict.args)) args = verdict.args;
    if (verdict.block) {
      const reason = verdict.reason?.trim() ? verdict.reason : `${call.tool_name} was blocked by an extension.`;
      decide("denied", "policy", "pre_execution", reason);
      return refuse(args, "blocked", reason);
    }
  } catch (err) {
    if (isAbortError(err)) return refuse(args, stopped(), `${call.tool_name} was ${stopped() === "timed_out" ? "timed out" : "cancelled"} before it ran.`);
    // Hooks never throw by contract; an exception here is the fail-open "allow, unchanged".
  }

  if (tool.interactive && !env.interactiveTools) {
    return refuse(args, "failed", `${call.tool_name} needs interactive input, which this mode cannot show. Do not call it here.`);
  }

  const verdict = await env.permissions.decide({
    tool_id: call.tool_id,
    tool_name: call.tool_name,
    tool_args: args,
    ...origin,
    preview: () => previewOf(tool, args),
    ...(tool.change ? { change: () => tool.change!(args) } : {}),
    onAsk: (tool_preview) =>
      env.emit.lifecycle({ type: "tool_confirmation_requested", tool_id: call.tool_id, tool_name: call.tool_name, tool_preview, ...origin }),
    signal: env.signal,
  });
  decide(verdict.decision, verdict.source, "pre_execution", verdict.reason);
  if (verdict.decision === "denied") return refuse(args, "blocked", `${call.tool_name} was not run: ${verdict.reason ?? "permission denied"}.`);
  if (verdict.decision === "cancelled") return refuse(args, "cancelled", `${call.tool_name} was not run: ${verdict.reason ?? "cancelled"}.`);

  let outcome: ToolOutcome;
  try {
    outcome = await tool.execute(args, {
      cwd: env.cwd,
      signal: env.signal,
      onProgress: (text) => env.emit.host({ type: "tool_progress", tool_id: call.tool_id, text }),
      toolId: call.tool_id,
      ...(call.origin_extension !== undefined ? { originExtension: call.origin_extension } : {}),
      ...(call.parent_id !== undefined ? { parentId: call.parent_id } : {}),
    });
  } catch (err) {
    // Tools never throw by contract; classify a broken one as failed, or cancelled if we asked it to stop.
    const status: ToolStatus = env.signal.aborted ? stopped() : "failed";
    const text = status !== "failed" ? `${call.tool_name} was ${status === "timed_out" ? "timed out" : "cancelled"}.` : `${call.tool_name} failed unexpectedly: ${(err as Error)?.message ?? String(err)}`;
    return finish(args, { content: [{ type: "text", text }], is_error: true, status, executed: true });
  }

  let status: ToolStatus = outcome.status ?? (outcome.is_error ? "failed" : "completed");
  if (status === "cancelled" && env.signal.aborted) status = stopped();
  const isError = outcome.is_error ?? status !== "completed";
  if (status === "blocked" && outcome.details?.policy !== undefined) {
    decide("denied", "policy", "tool_execution", textOf(outcome.content) || `${call.tool_name} refused by ${String(outcome.details.policy)} policy`);
  }
  if (outcome.activate_tools?.length) env.onActivateTools?.(outcome.activate_tools);
  return finish(args, {
    content: Array.isArray(outcome.content) ? outcome.content : [],
    is_error: isError,
    status,
    executed: true,
    ...(outcome.activate_tools ? { activate_tools: outcome.activate_tools } : {}),
    ...(outcome.details ? { details: outcome.details } : {}),
  });
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
