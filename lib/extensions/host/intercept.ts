// Interception: the host side of `event_intercept`. Interceptors are consulted serially in load
// order (explicit extensions first). For tool_call, turn_start and assistant_message the first
// `block` wins and rewrites chain (each interceptor sees the previous one's result); a rewritten
// tool call goes back to the interceptors that had already approved it, so what runs is what
// every one of them approved. A timeout, crash or invalid reply follows the interceptor's
// failure policy (`on_failure`, see catalog/permissions/): "allow" (the spec's default,
// fail-open) continues unchanged with a diagnostic;
// "block" (a fail-closed guard) refuses the action with "refused: guard <name> did not answer".
// The deadline of these starts once the request is written. before_agent_start replaces the
// system prompt, never blocks, and its deadline includes the write; a fail-closed guard on it
// that does not answer refuses every turn until the prompt is prepared again (/reload-ext,
// /clear, /new) and it answers. An extension that lets INTERCEPT_TIMEOUTS_BEFORE_CUTOFF requests
// in a row time out is no longer consulted until it is reloaded: its failure policy applies at
// once instead of costing a deadline per call — so a cut-off (or crashed) fail-closed guard keeps
// refusing; it never turns into a silent allow.
import type {
  BeforeAgentStartInput, InterceptedAssistantMessage, InterceptedToolCall, InterceptedTurnStart, ProposedToolCall,
} from "../../agent/contracts/hooks.ts";
import { isJsonObject, sameJson } from "../../protocol/json-object.ts";
import { SYSTEM_PROMPT_MAX_BYTES } from "../../protocol/limits.ts";
import type { EventInterceptResponseFrame, ToolOwner } from "../../protocol/extension-frames.ts";
import { absentGuardRefusal, type AbsentGuard } from "../catalog/permissions/absent-guards.ts";
import type { Reply } from "../runtime/connection.ts";
import type { LoadedExtension } from "../runtime/extension.ts";
import { guardRefusal, InterceptPoints, toolCallExtras, type Consulting } from "./intercept-points.ts";

export interface InterceptDeps {
  /** Live extensions in load order. */
  extensions(): readonly LoadedExtension[];
  /** Configured fail-closed guards that are not running: they refuse what they guard. */
  absentGuards(): readonly AbsentGuard[];
  timeoutMs(): number;
  /** A host-visible warning about one extension (extension log + ext_notify). */
  warn(ext: LoadedExtension, message: string): void;
  /** Who provides an extension's tool (intercept_v2 payloads name it: a hook calls an MCP tool mcp__server__tool). */
  toolOwner?(toolName: string): ToolOwner | undefined;
}


type Response = EventInterceptResponseFrame;
/** An answer, or why there is none: the interceptor failed (timeout, crash, invalid) or the caller cancelled. */
type Answer = { ok: true; frame: Response } | { ok: false; cancelled: boolean };

export { guardRefusal };

/** Consecutive interception timeouts after which an extension is no longer consulted. */
export const INTERCEPT_TIMEOUTS_BEFORE_CUTOFF = 3;

export class InterceptorChains implements Consulting {
  /** Timeouts in a row per extension; a reload brings new LoadedExtension objects, so a clean slate. */
  private readonly timeoutsInARow = new WeakMap<LoadedExtension, number>();
  private readonly cutOff = new WeakSet<LoadedExtension>();
  /** Set when a fail-closed before_agent_start guard failed the last prompt pass: turns are refused. */
  private promptRefusal: { extension: string; reason: string } | undefined;

  constructor(private readonly deps: InterceptDeps) {}

  /**
   * The chain for `event`, in load order: live extensions that intercept it and are still
   * consulted, and fail-closed guards of it that cannot answer (they refuse at once).
   */
  interceptors(event: string): LoadedExtension[] {
    return this.deps.extensions().filter((e) => this.consulted(e, event) || this.refusesAtOnce(e, event));
  }

  /** The first configured fail-closed guard of `event` that is not running, if any. */
  absentGuard(event: string): AbsentGuard | undefined {
    return this.deps.absentGuards().find((guard) => guard.events.has(event));
  }

  private consulted(ext: LoadedExtension, event: string): boolean {
    return ext.alive && ext.intercepts.has(event) && !this.cutOff.has(ext);
  }

  /** A fail-closed guard of `event` that is cut off, crashed or never got to subscribe. */
  private refusesAtOnce(ext: LoadedExtension, event: string): boolean {
    if (ext.permissions.failurePolicy(event) !== "block" || this.consulted(ext, event)) return false;
    return ext.intercepts.has(event) || (!ext.alive && ext.permissions.declaresIntercept(event));
  }

  failsClosed(ext: LoadedExtension, event: string): boolean {
    return ext.permissions.failurePolicy(event) === "block";
  }

  /** Counts a timeout (or, with `answered`, resets the count); cuts the extension off at the limit. */
  private countTimeout(ext: LoadedExtension, answered: boolean): void {
    if (answered) return void this.timeoutsInARow.delete(ext);
    const count = (this.timeoutsInARow.get(ext) ?? 0) + 1;
    this.timeoutsInARow.set(ext, count);
    if (count < INTERCEPT_TIMEOUTS_BEFORE_CUTOFF || this.cutOff.has(ext)) return;
    this.cutOff.add(ext);
    this.deps.warn(ext, `did not answer ${count} interception requests in a row; it is no longer consulted for interception `
      + `in this session (${this.cutOffEffect(ext)}); /reload-ext consults it again`);
  }

  private cutOffEffect(ext: LoadedExtension): string {
    const intercepts = [...ext.intercepts];
    const closed = intercepts.filter((event) => this.failsClosed(ext, event));
    if (closed.length === 0) return "what it would intercept is allowed at once";
    if (closed.length === intercepts.length) return "what it guards is refused at once: on_failure is block";
    return `${closed.join(", ")} ${closed.length === 1 ? "is" : "are"} refused at once (on_failure block), the rest allowed`;
  }

  private async ask(ext: LoadedExtension, payload: Record<string, unknown> & { event: string },
    signal: AbortSignal | undefined, deadlineIncludesWrite = false): Promise<Answer> {
    const timeoutMs = ext.interceptTimeoutMs ?? this.deps.timeoutMs();
    const reply: Reply<Response> = await ext.driver.intercept(payload, { idKind: "intercept", timeoutMs, signal, deadlineIncludesWrite });
    if (reply.ok) {
      this.countTimeout(ext, true);
      return { ok: true, frame: reply.frame };
    }
    if (reply.reason === "cancelled") return { ok: false, cancelled: true };
    if (reply.reason === "timeout" && !reply.delivered && ext.alive) {
      // The request never made it through the pipe: close it to release the blocked writer.
      ext.fail(`the ${payload.event} interception request could not be written within ${timeoutMs} ms`);
    }
    const what = reply.reason === "timeout" ? `did not answer within ${timeoutMs} ms` : reply.message;
    this.deps.warn(ext, `${payload.event} interception ${what}; ${this.failureEffect(ext, payload.event)}`);
    this.countTimeout(ext, reply.reason !== "timeout");
    return { ok: false, cancelled: false };
  }

  /** What an interceptor's failure does, for its warnings. */
  private failureEffect(ext: LoadedExtension, event: string): string {
    if (this.failsClosed(ext, event)) return event === "before_agent_start" ? "turns refused (on_failure: block)" : "refused (on_failure: block)";
    return event === "before_agent_start" ? "prompt kept" : "allowed";
  }

  /** An answer the host cannot use: a fail-closed guard refuses, any other is warned about and ignored. */
  unusable(ext: LoadedExtension, event: string, message: string): boolean {
    const closed = this.failsClosed(ext, event);
    this.deps.warn(ext, `${message}; ${closed ? "refused (on_failure: block)" : event === "before_agent_start" ? "prompt kept" : "ignored"}`);
    return closed;
  }

  /**
   * Asks `ext` unless it is a fail-closed guard that cannot answer. "refuse": the guard's failure
   * refuses the action; undefined: no usable answer, go on (fail-open, or cancelled).
   */
  async consult(ext: LoadedExtension, payload: Record<string, unknown> & { event: string },
    signal: AbortSignal | undefined, deadlineIncludesWrite = false): Promise<Response | "refuse" | undefined> {
    if (!this.consulted(ext, payload.event)) return "refuse"; // in the chain only as a fail-closed guard
    const answer = await this.ask(ext, payload, signal, deadlineIncludesWrite);
    if (answer.ok) return answer.frame;
    return !answer.cancelled && this.failsClosed(ext, payload.event) ? "refuse" : undefined;
  }

  /**
   * The tool_call chain. The arguments that run are arguments every consulted interceptor
   * approved: after a rewrite, the interceptors that answered before see the new arguments again
   * (the one that rewrote approves its own result), until a pass brings no new rewrite. A rewrite
   * needs the tool in the rewriter's permissions.tools (rewriting a call is making it). Rewrites
   * that keep undoing each other for more passes than there are interceptors refuse the call.
   */
  async toolCall(call: ProposedToolCall, signal?: AbortSignal): Promise<InterceptedToolCall> {
    let args = call.toolArgs;
    const absent = this.absentGuard("tool_call");
    if (absent) return { block: true, reason: absentGuardRefusal(absent), args };
    const chain = this.interceptors("tool_call");
    const approved = new Set<LoadedExtension>();
    // Those that failed to answer under a fail-open policy allow whatever runs: not asked again.
    const indifferent = new Set<LoadedExtension>();
    const rewrittenBy: string[] = [];
    // intercept_v2 answers, per interceptor: its last answer counts (a re-pass asks again).
    const extras = new Map<LoadedExtension, Response>();
    const outcome = (block: boolean, reason?: string): InterceptedToolCall => ({
      block, ...(reason !== undefined ? { reason } : {}), args, ...(rewrittenBy.length ? { rewrittenBy } : {}),
      ...(block ? {} : toolCallExtras(chain, extras)),
    });
    for (let pass = 0; chain.some((ext) => !approved.has(ext) && !indifferent.has(ext)); pass++) {
      if (pass > chain.length) {
        return outcome(true, `refused: the tool_call interceptors kept rewriting the arguments (${rewrittenBy.join(", ")}); a rewrite shown its own result must leave it unchanged`);
      }
      for (const ext of chain) {
        if (approved.has(ext) || indifferent.has(ext)) continue;
        if (signal?.aborted) return outcome(false);
        const response = await this.consult(ext, {
          event: "tool_call", tool_id: call.toolId, tool_name: call.toolName, tool_args: args,
          ...(call.originExtension !== undefined ? { origin_extension: call.originExtension } : {}),
          ...this.ownerField(ext, call.toolName),
        }, signal);
        if (response === "refuse") return outcome(true, guardRefusal(ext.name));
        if (!response) {
          indifferent.add(ext);
          continue;
        }
        if (response.block) return outcome(true, response.reason || `blocked by extension "${ext.name}"`);
        if (ext.interceptV2) extras.set(ext, response);
        const rewrite = response.modified_args;
        if (rewrite !== undefined && !isJsonObject(rewrite)) {
          if (this.unusable(ext, "tool_call", "tool_call interception: modified_args must be a JSON object")) return outcome(true, guardRefusal(ext.name));
          indifferent.add(ext);
          continue;
        }
        if (rewrite !== undefined && !sameJson(rewrite, args)) {
          if (!ext.permissions.allowsTool(call.toolName)) {
            ext.permissions.refuse("tools", call.toolName, `rewrite of a ${call.toolName} call refused: ${call.toolName} is not in permissions.tools`);
            if (this.unusable(ext, "tool_call", `tool_call interception: rewriting the arguments of ${call.toolName} needs ${call.toolName} in permissions.tools`)) {
              return outcome(true, guardRefusal(ext.name));
            }
            indifferent.add(ext);
            continue;
          }
          args = rewrite;
          if (!rewrittenBy.includes(ext.name)) rewrittenBy.push(ext.name);
          ext.noteRewrite("tool_call", `the arguments of ${call.toolName} call ${call.toolId}`);
          approved.clear();
        }
        approved.add(ext);
      }
    }
    return outcome(false);
  }

  /** `tool_owner` for an intercept_v2 extension, when an extension provides the tool. */
  ownerField(ext: LoadedExtension, toolName: string): { tool_owner?: ToolOwner } {
    const owner = ext.interceptV2 ? this.deps.toolOwner?.(toolName) : undefined;
    return owner ? { tool_owner: owner } : {};
  }

  /** The chains the intercept_v2 points add (intercept-points.ts). */
  readonly points = new InterceptPoints(this);

  async turnStart(step: number, signal?: AbortSignal): Promise<InterceptedTurnStart> {
    if (this.promptRefusal) return { block: true, ...this.promptRefusal };
    const absent = this.absentGuard("turn_start");
    if (absent) return { block: true, reason: absentGuardRefusal(absent), extension: absent.name };
    for (const ext of this.interceptors("turn_start")) {
      if (signal?.aborted) break;
      const response = await this.consult(ext, { event: "turn_start", step }, signal);
      if (response === "refuse") return { block: true, reason: guardRefusal(ext.name), extension: ext.name };
      if (response?.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, extension: ext.name };
    }
    return { block: false };
  }

  async assistantMessage(text: string, signal?: AbortSignal): Promise<InterceptedAssistantMessage> {
    let current = text;
    const absent = this.absentGuard("assistant_message");
    if (absent) return { block: true, reason: absentGuardRefusal(absent), extension: absent.name, text: current };
    for (const ext of this.interceptors("assistant_message")) {
      if (signal?.aborted) break;
      const response = await this.consult(ext, { event: "assistant_message", text: current }, signal);
      if (response === "refuse") return { block: true, reason: guardRefusal(ext.name), extension: ext.name, text: current };
      if (!response) continue;
      if (response.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, extension: ext.name, text: current };
      if (response.replace_text !== undefined && response.replace_text !== current) {
        current = response.replace_text;
        ext.noteRewrite("assistant_message", "the assistant's text");
      }
    }
    return { block: false, text: current };
  }

  /**
   * Runs the before_agent_start chain: each extension receives the previous result. Invalid
   * values keep the current prompt with a warning; cancellation commits nothing.
   */
  async beforeAgentStart(input: BeforeAgentStartInput): Promise<string> {
    let prompt = input.systemPrompt;
    this.promptRefusal = undefined;
    // before_agent_start cannot block: a fail-closed guard's failure refuses the turns instead.
    const refuse = (ext: LoadedExtension) => {
      this.promptRefusal = { extension: ext.name, reason: `${guardRefusal(ext.name)} (before_agent_start)` };
      return prompt;
    };
    const absent = this.absentGuard("before_agent_start");
    if (absent) {
      this.promptRefusal = { extension: absent.name, reason: `${absentGuardRefusal(absent)} (before_agent_start)` };
      return prompt;
    }
    for (const ext of this.interceptors("before_agent_start")) {
      if (input.signal?.aborted) return input.systemPrompt;
      const response = await this.consult(ext, {
        event: "before_agent_start", session_id: input.sessionId, agent_run_id: input.agentRunId,
        cwd: input.cwd, provider: input.provider, model: input.model, system_prompt: prompt,
      }, input.signal, true);
      if (input.signal?.aborted) return input.systemPrompt;
      if (response === "refuse") return refuse(ext);
      if (!response || response.system_prompt === undefined) continue;
      const value = response.system_prompt;
      if (typeof value !== "string") {
        if (this.unusable(ext, "before_agent_start", "before_agent_start: system_prompt must be a string")) return refuse(ext);
        continue;
      }
      const encoded = Buffer.byteLength(JSON.stringify(value));
      if (encoded > SYSTEM_PROMPT_MAX_BYTES) {
        if (this.unusable(ext, "before_agent_start", `before_agent_start: system_prompt is ${encoded} bytes encoded; the limit is ${SYSTEM_PROMPT_MAX_BYTES}`)) return refuse(ext);
        continue;
      }
      if (value !== prompt) ext.noteRewrite("before_agent_start", "the system prompt");
      prompt = value;
    }
    return prompt;
  }
}
