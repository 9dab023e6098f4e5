// The first half of a `tool_prompt` command action: the user message, then the requested tool
// through the normal guards and confirmation, recorded as a paired assistant tool call and tool
// result (both marked with the requesting extension). The model turn follows in the caller.
import type { Emitter } from "../contracts/emitter.ts";
import type { RunResult, TranscriptSink } from "../contracts/loop-options.ts";
import type { SettledToolCall, ToolCallRequest } from "../contracts/tool-call.ts";
import { toolResultMessage } from "./loop.ts";
import { userMessageEvent } from "../stream-blocks.ts";
import type { AssistantMessage, UserContent, UserMessage } from "../../providers/types.ts";

export interface ToolPromptStep {
  prompt: string;
  toolName: string;
  toolArgs: Record<string, unknown>;
  originExtension?: string;
  toolId: string;
  provider: string;
  model: string;
  transcript: TranscriptSink;
  emit: Emitter;
  execute: (call: ToolCallRequest) => Promise<SettledToolCall>;
}

export async function recordToolPrompt(step: ToolPromptStep): Promise<SettledToolCall> {
  const origin = step.originExtension;
  const marker = origin ? { origin_extension: origin } : {};
  // Providers need a user turn before the assistant's call, even for an empty prompt.
  const text = step.prompt.trim() ? step.prompt : `(${step.toolName} requested${origin ? ` by ${origin}` : ""})`;
  const user = userMessage(text, []);
  step.transcript.append(user);
  step.emit.host(userMessageEvent(user));
  step.emit.lifecycle({ type: "tool_call", tool_id: step.toolId, tool_name: step.toolName, tool_args: step.toolArgs, ...marker });
  const outcome = await step.execute({
    toolId: step.toolId, toolName: step.toolName, args: step.toolArgs, ...(origin ? { originExtension: origin } : {}),
  });
  const assistant: AssistantMessage = {
    role: "assistant",
    content: [{ type: "tool_call", id: step.toolId, name: step.toolName, args: outcome.args }],
    stop: "tool_use",
    provider: step.provider,
    model: step.model,
    timestamp: Date.now(),
  };
  // Appended together once the tool finished, so a crash never leaves the call unpaired on disk.
  step.transcript.append(assistant, origin);
  step.transcript.append(toolResultMessage(outcome), origin);
  return outcome;
}

/**
 * A whole `tool_prompt` run: the recorded pair, then the model turn (`continueRun`). A
 * cancellation stops before the model turn, keeping a completed pair, and ends as the loop does
 * for json/rpc clients: a turn_end with stop aborted.
 */
export async function runToolPromptTurn(step: ToolPromptStep, signal: AbortSignal,
  continueRun: () => Promise<RunResult>): Promise<RunResult> {
  await recordToolPrompt(step);
  if (!signal.aborted) return continueRun();
  step.emit.lifecycle({ type: "turn_end", stop: "aborted" }, { extensions: false });
  return { stop: "aborted", text: "" };
}

export function userMessage(text: string, images: UserContent[]): UserMessage {
  const content: UserContent[] = [];
  if (text !== "") content.push({ type: "text", text });
  content.push(...images);
  return { role: "user", content, timestamp: Date.now() };
}
