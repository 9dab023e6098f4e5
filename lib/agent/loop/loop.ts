// The agent loop: model steps until the model stops calling tools, the step cap is reached, a
// turn is blocked, the provider fails, or the run is aborted. Pure in the pi sense: the
// provider, tools, hooks, transcript and event sink are injected; the loop owns only ordering.
//
// One step, in the spec's order:
//   turn_start interception → turn_start → text/thinking deltas (live unless an extension
//   intercepts assistant_message) → assistant_message interception → assistant_message →
//   tool_call per call → turn_end → usage → per call: runToolCall (interception, confirmation,
//   permission_decision, execution, tool_result) → next step.
import { isAbortError, raceAbort } from "./abort.ts";
import type { Emitter } from "../session/emitter.ts";
import type { AgentHooks } from "./hooks.ts";
import type { ToolCallRequest, ToolRunOutcome } from "./tool-runner.ts";
import type { AssistantMessage, Message, Provider, ReasoningEffort, StopReason, ToolCallBlock, ToolResultMessage } from "../../providers/types.ts";
import type { Tool } from "../../tools/types.ts";

/** How a run ended. `text` is the last assistant text the user saw (after interception). */
export interface RunResult {
  stop: StopReason | "blocked";
  error?: string;
  text: string;
}

export interface LoopEnv {
  provider: Provider;
  model: () => string;
  reasoning?: ReasoningEffort;
  maxTokens?: number;
  messages: () => readonly Message[];
  append: (message: Message) => void;
  /** The effective system prompt (prepared once, stable across steps). */
  systemPrompt: (signal: AbortSignal) => Promise<string>;
  tools: () => ReadonlyMap<string, Tool>;
  hooks: AgentHooks;
  emit: Emitter;
  signal: AbortSignal;
  maxSteps: number;
  runTool: (call: ToolCallRequest) => Promise<ToolRunOutcome>;
  /** Runs before each model step (automatic compaction). */
  beforeStep?: (signal: AbortSignal) => Promise<void>;
  /** Receives each step's final assistant message (usage accounting). */
  onStepEnd?: (message: AssistantMessage) => void;
}

export async function runAgentLoop(env: LoopEnv): Promise<RunResult> {
  let visible = "";
  const aborted = (): RunResult => ({ stop: "aborted", text: visible });
  try {
    for (let step = 1; ; step++) {
      if (env.signal.aborted) return aborted();
      if (step > env.maxSteps) {
        return { stop: "error", error: `stopped after ${env.maxSteps} model steps without a final answer (raise --max-steps)`, text: visible };
      }
      await env.beforeStep?.(env.signal);
      const system = await env.systemPrompt(env.signal);
      const gate = await raceAbort(env.hooks.interceptTurnStart(step, env.signal), env.signal);
      if (gate.block) return { stop: "blocked", error: gate.reason?.trim() ? gate.reason : "the turn was blocked by an extension", text: visible };
      env.emit.lifecycle({ type: "turn_start", step });

      // Decided once per step, so text is never both streamed live and replayed after interception.
      const live = !env.hooks.interceptsAssistantMessage();
      const message = await streamStep(env, system, live);
      const failed = message.stop === "error" || message.stop === "aborted";
      // A failed response may hold half-received tool calls: they were never proposed whole, so
      // they are neither announced nor kept (the transcript must pair every call with a result).
      const calls = failed ? [] : message.content.filter((block): block is ToolCallBlock => block.type === "tool_call");
      const kept: AssistantMessage = failed ? { ...message, content: message.content.filter((b) => b.type !== "tool_call") } : message;
      if (kept.content.length > 0) env.append(kept);

      if (!failed) {
        const shown = await showAssistantText(env, message, live);
        if (shown !== undefined) visible = shown;
      }
      for (const call of calls) {
        // Malformed arguments follow tool_result's rule: no tool_args, the raw text instead.
        env.emit.lifecycle({ type: "tool_call", tool_id: call.id, tool_name: call.name,
          ...(call.args_raw !== undefined ? { tool_args_raw: call.args_raw } : { tool_args: call.args }) });
      }
      env.emit.lifecycle({ type: "turn_end", stop: message.stop, ...(message.error !== undefined ? { error: message.error } : {}) });
      env.onStepEnd?.(message);

      if (message.stop === "aborted" || (env.signal.aborted && calls.length === 0)) return aborted();
      if (message.stop === "error") return { stop: "error", error: message.error ?? "the model request failed", text: visible };
      if (calls.length === 0) return { stop: message.stop, text: visible };

      for (const call of calls) {
        const outcome = await env.runTool({
          toolId: call.id,
          toolName: call.name,
          args: call.args,
          ...(call.args_raw !== undefined ? { argsRaw: call.args_raw } : {}),
        });
        env.append(toolResultMessage(outcome));
      }
      if (env.signal.aborted) return aborted();
    }
  } catch (err) {
    if (isAbortError(err) || env.signal.aborted) return aborted();
    return { stop: "error", error: (err as Error)?.message ?? String(err), text: visible };
  }
}

/** Streams one model response; text deltas go out live unless assistant text is intercepted. */
async function streamStep(env: LoopEnv, system: string, live: boolean): Promise<AssistantMessage> {
  const tools = [...env.tools().values()].map(({ name, description, schema }) => ({ name, description, schema }));
  let final: AssistantMessage | undefined;
  try {
    for await (const event of env.provider.stream({
      model: env.model(),
      system,
      messages: [...env.messages()],
      tools,
      ...(env.reasoning ? { reasoning: env.reasoning } : {}),
      ...(env.maxTokens ? { maxTokens: env.maxTokens } : {}),
      signal: env.signal,
    })) {
      if (event.type === "text_delta") {
        if (live) env.emit.host({ type: "text_delta", delta: event.delta });
      } else if (event.type === "thinking_delta") {
        env.emit.host({ type: "thinking_delta", delta: event.delta });
      } else if (event.type === "retry") {
        env.emit.host({ type: "error", message: `model request failed (${event.error}); retry ${event.attempt} in ${event.delayMs} ms` });
      } else if (event.type === "done") {
        final = event.message;
      }
    }
  } catch (err) {
    // Providers do not throw by contract; keep the loop's own contract if one does.
    final = failedMessage(env, env.signal.aborted ? "aborted" : "error", (err as Error)?.message ?? String(err));
  }
  return final ?? failedMessage(env, env.signal.aborted ? "aborted" : "error", "the provider ended the response without a result");
}

function failedMessage(env: LoopEnv, stop: "error" | "aborted", error: string): AssistantMessage {
  return { role: "assistant", content: [], stop, ...(stop === "error" ? { error } : {}), provider: env.provider.name, model: env.model(), timestamp: Date.now() };
}

/**
 * Runs assistant_message interception and emits the visible text. Returns what the user saw,
 * or undefined when there was no text or an extension suppressed it. The transcript keeps the
 * model's original text either way.
 */
async function showAssistantText(env: LoopEnv, message: AssistantMessage, live: boolean): Promise<string | undefined> {
  const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  if (text === "") return undefined;
  const decision = await raceAbort(env.hooks.interceptAssistantMessage(text, env.signal), env.signal);
  if (decision.block) {
    // The spec shows an assistant_message block's reason to the user: as a warning note in
    // every mode (REPL note, stderr in print mode, an ext_notify event in json/rpc).
    const reason = decision.reason?.trim() ? decision.reason : "blocked by an extension";
    env.emit.host({ type: "ext_notify", extension: decision.extension ?? "extension", level: "warn", message: `assistant message suppressed: ${reason}` });
    return undefined;
  }
  const shown = typeof decision.text === "string" ? decision.text : text;
  // Intercepted text was held back while streaming; the user now sees the final version once.
  if (!live && shown !== "") env.emit.host({ type: "text_delta", delta: shown });
  env.emit.lifecycle({ type: "assistant_message", text: shown });
  return shown;
}

export function toolResultMessage(outcome: ToolRunOutcome): ToolResultMessage {
  return {
    role: "tool_result",
    tool_id: outcome.toolId,
    tool_name: outcome.toolName,
    content: outcome.content,
    is_error: outcome.isError,
    timestamp: Date.now(),
  };
}
