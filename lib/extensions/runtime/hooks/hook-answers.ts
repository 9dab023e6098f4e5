// How the replies of the hooks of one moment become zot's interception answer, by Claude Code's
// output rules for that event. Matching hooks run in parallel; their replies are combined here:
// a block or deny from any wins, "ask" wins over "allow", contexts add up in configuration order.
import type { EventInterceptResponseFrame } from "../../../protocol/index.ts";
import { blockReason, contextOf, specificOutput, stopRequest, stringField, type HookReply } from "./hook-output.ts";
import { isJsonObject } from "../../../protocol/index.ts";

type Answer = Omit<EventInterceptResponseFrame, "type" | "id">;

const joined = (parts: Array<string | undefined>): string | undefined => {
  const texts = parts.filter((p): p is string => p !== undefined && p.trim() !== "");
  return texts.length ? texts.join("\n\n") : undefined;
};

/** PreToolUse: deny (exit 2, `permissionDecision: "deny"`, the older `decision: "block"`), ask, allow, updatedInput, context. */
export function preToolUseAnswer(replies: readonly HookReply[], toolName: string):
  { answer: Answer; updatedInput?: Record<string, unknown> } {
  const stop = replies.map(stopRequest).find(Boolean);
  if (stop) return { answer: { block: true, reason: stop.reason } };
  const decisionOf = (reply: HookReply): string | undefined => {
    if (reply.blocking) return "deny";
    const decision = stringField(specificOutput(reply), "permissionDecision");
    if (decision) return decision;
    const legacy = stringField(reply.json, "decision");
    return legacy === "block" ? "deny" : legacy === "approve" ? "allow" : undefined;
  };
  const denied = replies.filter((r) => decisionOf(r) === "deny");
  if (denied.length) {
    return { answer: { block: true, reason: denied.map((r) => blockReason(r, `${toolName} was blocked by a PreToolUse hook`)).join("\n") } };
  }
  const asks = replies.filter((r) => decisionOf(r) === "ask");
  const allows = replies.filter((r) => decisionOf(r) === "allow");
  const decided = asks[0] ?? allows[0];
  const updated = replies.map((r) => specificOutput(r).updatedInput).find(isJsonObject);
  const context = joined(replies.map((r) => contextOf(r, false)));
  const answer: Answer = {
    ...(decided ? { decision: asks.length ? "ask" : "allow" } : {}),
    ...(decided && stringField(specificOutput(decided), "permissionDecisionReason") ? { reason: stringField(specificOutput(decided), "permissionDecisionReason")! } : {}),
    ...(context ? { additional_context: context } : {}),
  };
  return { answer, ...(updated ? { updatedInput: updated } : {}) };
}

/** PostToolUse and PostToolUseFailure: feedback for the model (exit 2's stderr, `decision: "block"`'s reason, additionalContext). */
export function postToolUseAnswer(replies: readonly HookReply[]): Answer {
  const context = joined(replies.flatMap((r) => [
    r.blocking ? r.stderr : undefined,
    stringField(r.json, "decision") === "block" ? stringField(r.json, "reason") : undefined,
    stopRequest(r)?.reason,
    contextOf(r, false),
  ]));
  return context ? { additional_context: context } : {};
}

/** UserPromptSubmit: block (exit 2, `decision: "block"`, `continue: false`) or context (plain stdout too). */
export function userPromptAnswer(replies: readonly HookReply[]): Answer {
  const stop = replies.map(stopRequest).find(Boolean);
  if (stop) return { block: true, reason: stop.reason };
  const blocked = replies.filter((r) => r.blocking || stringField(r.json, "decision") === "block");
  if (blocked.length) return { block: true, reason: blocked.map((r) => blockReason(r, "the prompt was blocked by a UserPromptSubmit hook")).join("\n") };
  const context = joined(replies.map((r) => contextOf(r, true)));
  return context ? { additional_context: context } : {};
}

/** Stop and SubagentStop: `decision: "block"` (or exit 2) continues the agent with the reason, unless a hook says `continue: false`. */
export function stopAnswer(replies: readonly HookReply[]): Answer {
  if (replies.some((r) => stopRequest(r))) return {};
  const next = joined(replies.filter((r) => r.blocking || stringField(r.json, "decision") === "block")
    .map((r) => blockReason(r, "")));
  return next ? { continue_with: next } : {};
}

/** SessionStart and SubagentStart: the context they add (plain stdout too, for SessionStart). */
export function startContext(replies: readonly HookReply[], plainIsContext: boolean): string | undefined {
  return joined(replies.map((r) => contextOf(r, plainIsContext)));
}

/** PermissionRequest: `decision.behavior` allow or deny (exit 2 denies). */
export function permissionRequestAnswer(replies: readonly HookReply[]): Answer {
  const behaviourOf = (r: HookReply) => {
    if (r.blocking) return { behavior: "deny", message: r.stderr };
    const decision = specificOutput(r).decision;
    return isJsonObject(decision) ? { behavior: decision.behavior, message: decision.message } : undefined;
  };
  const decisions = replies.map(behaviourOf).filter((d) => d !== undefined);
  const deny = decisions.find((d) => d.behavior === "deny");
  if (deny) return { block: true, reason: typeof deny.message === "string" && deny.message ? deny.message : "denied by a PermissionRequest hook" };
  return decisions.some((d) => d.behavior === "allow") ? { decision: "allow" } : {};
}
