// Interception: the host side of `event_intercept`. Interceptors are consulted serially in load
// order (explicit extensions first). For tool_call, turn_start and assistant_message the first
// `block` wins and rewrites chain (each interceptor sees the previous one's result); a timeout,
// crash or invalid reply means "allow, unchanged" (fail-open) with a diagnostic. The deadline of
// these starts once the request is written. before_agent_start replaces the system prompt, never
// blocks, and its deadline includes the write. An extension that lets
// INTERCEPT_TIMEOUTS_BEFORE_CUTOFF requests in a row time out is no longer consulted until it
// is reloaded: its failure policy (allow) applies at once instead of costing a deadline per call.
import type {
  BeforeAgentStartInput, InterceptedAssistantMessage, InterceptedToolCall, InterceptedTurnStart, ProposedToolCall,
} from "../../agent/loop/hooks.ts";
import { isJsonObject, SYSTEM_PROMPT_MAX_BYTES, type EventInterceptResponseFrame } from "../../protocol/index.ts";
import type { Reply } from "./connection.ts";
import type { LoadedExtension } from "./extension.ts";

export interface InterceptDeps {
  /** Live extensions in load order. */
  extensions(): LoadedExtension[];
  timeoutMs(): number;
  /** A host-visible warning about one extension (extension log + ext_notify). */
  warn(ext: LoadedExtension, message: string): void;
}

type Response = EventInterceptResponseFrame;

/** Consecutive interception timeouts after which an extension is no longer consulted. */
export const INTERCEPT_TIMEOUTS_BEFORE_CUTOFF = 3;

export class InterceptorChains {
  /** Timeouts in a row per extension; a reload brings new LoadedExtension objects, so a clean slate. */
  private readonly timeoutsInARow = new WeakMap<LoadedExtension, number>();
  private readonly cutOff = new WeakSet<LoadedExtension>();

  constructor(private readonly deps: InterceptDeps) {}

  /** Live extensions that intercept `event` and are still consulted, in load order. */
  interceptors(event: string): LoadedExtension[] {
    return this.deps.extensions().filter((e) => e.alive && e.intercepts.has(event) && !this.cutOff.has(e));
  }

  /** Counts a timeout (or, with `answered`, resets the count); cuts the extension off at the limit. */
  private countTimeout(ext: LoadedExtension, answered: boolean): void {
    if (answered) return void this.timeoutsInARow.delete(ext);
    const count = (this.timeoutsInARow.get(ext) ?? 0) + 1;
    this.timeoutsInARow.set(ext, count);
    if (count < INTERCEPT_TIMEOUTS_BEFORE_CUTOFF || this.cutOff.has(ext)) return;
    this.cutOff.add(ext);
    this.deps.warn(ext, `did not answer ${count} interception requests in a row; it is no longer consulted for interception `
      + "in this session (what it would intercept is allowed at once); /reload-ext consults it again");
  }

  private async ask(ext: LoadedExtension, payload: Record<string, unknown> & { event: string },
    signal: AbortSignal | undefined, deadlineIncludesWrite = false): Promise<Response | undefined> {
    const conn = ext.conn!;
    const timeoutMs = this.deps.timeoutMs();
    const reply: Reply<Response> = await conn.request<Response>(
      { type: "event_intercept", id: conn.newId("intercept"), ...payload },
      "event_intercept_response", { timeoutMs, signal, deadlineIncludesWrite });
    if (reply.ok) {
      this.countTimeout(ext, true);
      return reply.frame;
    }
    if (reply.reason === "cancelled") return undefined;
    if (reply.reason === "timeout" && !reply.delivered && ext.alive) {
      // The request never made it through the pipe: close it to release the blocked writer.
      ext.fail(`the ${payload.event} interception request could not be written within ${timeoutMs} ms`);
    }
    const what = reply.reason === "timeout" ? `did not answer within ${timeoutMs} ms` : reply.message;
    this.deps.warn(ext, `${payload.event} interception ${what}; ${payload.event === "before_agent_start" ? "prompt kept" : "allowed"}`);
    this.countTimeout(ext, reply.reason !== "timeout");
    return undefined;
  }

  async toolCall(call: ProposedToolCall, signal?: AbortSignal): Promise<InterceptedToolCall> {
    let args = call.toolArgs;
    for (const ext of this.interceptors("tool_call")) {
      if (signal?.aborted) break;
      const response = await this.ask(ext, {
        event: "tool_call", tool_id: call.toolId, tool_name: call.toolName, tool_args: args,
        ...(call.originExtension !== undefined ? { origin_extension: call.originExtension } : {}),
      }, signal);
      if (!response) continue;
      if (response.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, args };
      if (response.modified_args !== undefined) {
        if (isJsonObject(response.modified_args)) args = response.modified_args;
        else this.deps.warn(ext, "tool_call interception: modified_args must be a JSON object; ignored");
      }
    }
    return { block: false, args };
  }

  async turnStart(step: number, signal?: AbortSignal): Promise<InterceptedTurnStart> {
    for (const ext of this.interceptors("turn_start")) {
      if (signal?.aborted) break;
      const response = await this.ask(ext, { event: "turn_start", step }, signal);
      if (response?.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, extension: ext.name };
    }
    return { block: false };
  }

  async assistantMessage(text: string, signal?: AbortSignal): Promise<InterceptedAssistantMessage> {
    let current = text;
    for (const ext of this.interceptors("assistant_message")) {
      if (signal?.aborted) break;
      const response = await this.ask(ext, { event: "assistant_message", text: current }, signal);
      if (!response) continue;
      if (response.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, extension: ext.name, text: current };
      if (response.replace_text !== undefined) current = response.replace_text;
    }
    return { block: false, text: current };
  }

  /**
   * Runs the before_agent_start chain: each extension receives the previous result. Invalid
   * values keep the current prompt with a warning; cancellation commits nothing.
   */
  async beforeAgentStart(input: BeforeAgentStartInput): Promise<string> {
    let prompt = input.systemPrompt;
    for (const ext of this.interceptors("before_agent_start")) {
      if (input.signal?.aborted) return input.systemPrompt;
      const response = await this.ask(ext, {
        event: "before_agent_start", session_id: input.sessionId, agent_run_id: input.agentRunId,
        cwd: input.cwd, provider: input.provider, model: input.model, system_prompt: prompt,
      }, input.signal, true);
      if (input.signal?.aborted) return input.systemPrompt;
      if (!response || response.system_prompt === undefined) continue;
      const value = response.system_prompt;
      if (typeof value !== "string") {
        this.deps.warn(ext, "before_agent_start: system_prompt must be a string; prompt kept");
        continue;
      }
      const encoded = Buffer.byteLength(JSON.stringify(value));
      if (encoded > SYSTEM_PROMPT_MAX_BYTES) {
        this.deps.warn(ext, `before_agent_start: system_prompt is ${encoded} bytes encoded; the limit is ${SYSTEM_PROMPT_MAX_BYTES}; prompt kept`);
        continue;
      }
      prompt = value;
    }
    return prompt;
  }
}
