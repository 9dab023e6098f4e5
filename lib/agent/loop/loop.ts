// The agent loop: model steps until the model stops calling tools, the step cap is reached, a
// turn is blocked, the provider fails, or the run is aborted. Pure in the pi sense: the
// provider, tools, hooks, transcript and event sink are injected; the loop owns only ordering.
//
// One step, in the spec's order:
//   turn_start interception → turn_start → assistant_start → text/thinking deltas (live unless
//   an extension intercepts assistant_message) and tool_use_* while call arguments stream →
//   assistant_message interception → assistant_message →
//   tool_call per call → turn_end → usage → per call: runToolCall (interception, confirmation,
//   permission_decision, execution, tool_result) → next step. When a response calls no tool, the
//   before_agent_end chain may continue the run with a prompt (at most `maxContinuations` in a row).
import { isAbortError, raceAbort } from "./abort.ts";
import type { LoopEnv, RunResult } from "../contracts/loop-options.ts";
import type { SettledToolCall } from "../contracts/tool-call.ts";
import { serialAdmission } from "./tool-runner.ts";
import { toolBlamedBy } from "../../providers/errors.ts";
import type { AssistantMessage, ToolCallBlock, ToolResultMessage, UserMessage } from "../../providers/types.ts";
import type { Tool } from "../../tools/types.ts";
import { userMessageEvent } from "../stream-blocks.ts";

/** Claude Code's cap on consecutive Stop-hook continuations: the run ends after this many in a row. */
export const DEFAULT_MAX_CONTINUATIONS = 8;

export async function runAgentLoop(env: LoopEnv): Promise<RunResult> {
  let visible = "";
  let continuations = 0;
  // An aborted run always ends with a turn_end whose stop is aborted (json/rpc clients wait for
  // it). When the abort came between responses, that turn_end is for clients only: for
  // extensions a turn_end ends a model response.
  let endedAborted = false;
  const aborted = (): RunResult => {
    if (!endedAborted) env.emit.lifecycle({ type: "turn_end", stop: "aborted" }, { extensions: false });
    return { stop: "aborted", text: visible };
  };
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
      env.emit.host({ type: "assistant_start" });

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
        const shown = await showResponse(env, message, live);
        if (shown !== undefined) visible = shown;
        // Extensions get it only when there is visible text (as the protocol says); json/rpc
        // clients get it for every response, with the calls announced right after it: so it,
        // the calls and turn_end go out with no await between them.
        env.emit.lifecycle({ type: "assistant_message", text: shown ?? "" }, { extensions: shown !== undefined });
      }
      for (const call of calls) {
        // Malformed arguments follow tool_result's rule: no tool_args, the raw text instead.
        env.emit.lifecycle({ type: "tool_call", tool_id: call.id, tool_name: call.name,
          ...(call.args_raw !== undefined ? { tool_args_raw: call.args_raw } : { tool_args: call.args }) });
      }
      env.emit.lifecycle({ type: "turn_end", stop: message.stop, ...(message.error !== undefined ? { error: message.error } : {}) });
      endedAborted = message.stop === "aborted";
      env.onStepEnd?.(message);

      if (message.stop === "aborted" || (env.signal.aborted && calls.length === 0)) return aborted();
      if (message.stop === "error") return { stop: "error", error: message.error ?? "the model request failed", text: visible };
      if (calls.length === 0) {
        const next = await continuation(env, visible, continuations);
        if (next === undefined) return { stop: message.stop, text: visible };
        continuations++;
        const prompt: UserMessage = { role: "user", content: [{ type: "text", text: next }], timestamp: Date.now() };
        env.append(prompt);
        env.emit.host(userMessageEvent(prompt));
        continue;
      }

      for (const batch of toolBatches(calls, env.tools())) {
        const admission = batch.length > 1 ? serialAdmission() : undefined;
        const outcomes = await Promise.all(batch.map((call) => env.runTool({
          toolId: call.id,
          toolName: call.name,
          args: call.args,
          ...(call.args_raw !== undefined ? { argsRaw: call.args_raw } : {}),
          ...(admission ? { admission } : {}),
        })));
        // Results go into the transcript in the order the model proposed the calls.
        for (const outcome of outcomes) env.append(toolResultMessage(outcome));
      }
      if (env.signal.aborted) return aborted();
    }
  } catch (err) {
    if (isAbortError(err) || env.signal.aborted) return aborted();
    return { stop: "error", error: (err as Error)?.message ?? String(err), text: visible };
  }
}

/**
 * The prompt a before_agent_end interceptor continues the run with, or undefined to end it (also
 * once the cap on consecutive continuations is reached, with a note saying so).
 */
async function continuation(env: LoopEnv, text: string, continuations: number): Promise<string | undefined> {
  const decision = await raceAbort(env.hooks.interceptAgentEnd({ text, continuations }, env.signal), env.signal);
  if (decision.continueWith === undefined) return undefined;
  const cap = env.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS;
  if (continuations >= cap) {
    env.emit.host({ type: "ext_notify", extension: decision.extension ?? "extension", level: "warn",
      message: `the run ends: it was already continued ${cap} times in a row, the most allowed` });
    return undefined;
  }
  return decision.continueWith;
}

/**
 * Streams one model response. When the provider refuses the request and blames one of the
 * tools (an extension's tool it cannot accept would fail every request), that tool is dropped
 * and the request is sent once more without it.
 */
async function streamStep(env: LoopEnv, system: string, live: boolean): Promise<AssistantMessage> {
  const offered = [...env.tools().keys()];
  const message = await streamOnce(env, system, live);
  if (message.stop !== "error" || !env.dropTool || env.signal.aborted) return message;
  const blamed = toolBlamedBy(message.error ?? "", offered);
  if (blamed === undefined || !env.dropTool(blamed, message.error ?? "")) return message;
  env.emit.host({ type: "error", message: `the model provider refused tool "${blamed}" (${message.error}); `
    + "it is dropped for this session and the request is sent again without it" });
  return streamOnce(env, system, live);
}

/**
 * Streams one model response; text deltas go out live unless assistant text is intercepted.
 * A tool call's arguments are reported as they stream: tool_use_start, tool_use_args fragments,
 * then tool_use_end once the next block begins or the response ends.
 */
async function streamOnce(env: LoopEnv, system: string, live: boolean): Promise<AssistantMessage> {
  const tools = [...env.tools().values()].map(({ name, description, schema }) => ({ name, description, schema }));
  let final: AssistantMessage | undefined;
  let streamingCall: string | undefined;
  const endCall = () => {
    if (streamingCall !== undefined) env.emit.host({ type: "tool_use_end", id: streamingCall });
    streamingCall = undefined;
  };
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
      if (event.type === "tool_call_delta") {
        if (event.id !== streamingCall) {
          endCall();
          streamingCall = event.id;
          env.emit.host({ type: "tool_use_start", id: event.id, name: event.name });
        }
        if (event.delta) env.emit.host({ type: "tool_use_args", id: event.id, delta: event.delta });
        continue;
      }
      endCall();
      if (event.type === "text_delta") {
        if (live) env.emit.host({ type: "text_delta", delta: event.delta });
      } else if (event.type === "thinking_delta") {
        env.emit.host({ type: "thinking_delta", delta: event.delta });
      } else if (event.type === "retry") {
        // A retry is not a failure: `error` is only the final one, right before a failed run's done.
        env.emit.host({ type: "retry", attempt: event.attempt, delay_ms: event.delayMs, ...(event.status !== undefined ? { status: event.status } : {}),
          message: event.error });
      } else if (event.type === "done") {
        final = event.message;
      }
    }
  } catch (err) {
    // Providers do not throw by contract; keep the loop's own contract if one does.
    final = failedMessage(env, env.signal.aborted ? "aborted" : "error", (err as Error)?.message ?? String(err));
  }
  endCall();
  return final ?? failedMessage(env, env.signal.aborted ? "aborted" : "error", "the provider ended the response without a result");
}

function failedMessage(env: LoopEnv, stop: "error" | "aborted", error: string): AssistantMessage {
  return { role: "assistant", content: [], stop, ...(stop === "error" ? { error } : {}), provider: env.provider.name, model: env.model(), timestamp: Date.now() };
}

/**
 * Runs assistant_message interception for a response: returns what the user saw, or undefined
 * when there was no text or an extension suppressed it. The transcript keeps the model's
 * original text either way.
 */
async function showResponse(env: LoopEnv, message: AssistantMessage, live: boolean): Promise<string | undefined> {
  const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  let shown: string | undefined;
  if (text !== "") {
    const decision = await raceAbort(env.hooks.interceptAssistantMessage(text, env.signal), env.signal);
    if (decision.block) {
      // The spec shows an assistant_message block's reason to the user: as a warning note in
      // every mode (REPL note, stderr in print mode, an ext_notify event in json/rpc).
      const reason = decision.reason?.trim() ? decision.reason : "blocked by an extension";
      env.emit.host({ type: "ext_notify", extension: decision.extension ?? "extension", level: "warn", message: `assistant message suppressed: ${reason}` });
    } else {
      shown = typeof decision.text === "string" ? decision.text : text;
    }
  }
  // Intercepted text was held back while streaming; the user now sees the final version once.
  if (!live && shown) env.emit.host({ type: "text_delta", delta: shown });
  return shown;
}

/**
 * The calls in execution batches: consecutive calls of a `concurrent` tool (subagents) form one
 * batch that runs at once; every other call is a batch of its own, run in order.
 */
export function toolBatches(calls: ToolCallBlock[], tools: ReadonlyMap<string, Tool>): ToolCallBlock[][] {
  const batches: ToolCallBlock[][] = [];
  let open: ToolCallBlock[] | undefined;
  for (const call of calls) {
    const concurrent = tools.get(call.name)?.concurrent === true && call.args_raw === undefined;
    if (concurrent && open) {
      open.push(call);
      continue;
    }
    const batch = [call];
    batches.push(batch);
    open = concurrent ? batch : undefined;
  }
  return batches;
}

export function toolResultMessage(outcome: SettledToolCall): ToolResultMessage {
  return {
    role: "tool_result",
    tool_id: outcome.toolId,
    tool_name: outcome.toolName,
    content: outcome.content,
    is_error: outcome.isError,
    timestamp: Date.now(),
  };
}
