// The interception points the agent loop awaits, shared by loop/ and session/. The extension
// host implements them; a run without extensions uses `NO_HOOKS`. Contract: hooks never throw — a failing or slow
// interceptor means "allow, unchanged" (the spec's fail-open rule), decided by the host.

import type { ToolContent } from "../../tools/types.ts";

export interface BeforeAgentStartInput {
  sessionId: string;
  agentRunId: string;
  cwd: string;
  provider: string;
  model: string;
  systemPrompt: string;
  signal?: AbortSignal;
}

/** A tool call as proposed, before interception. */
export interface ProposedToolCall {
  toolId: string;
  toolName: string;
  toolArgs: Record<string, unknown>;
  /** Set when the call came from an extension (`call_tool`, or a `tool_prompt` action). */
  originExtension?: string;
}

/** What the tool_call interceptor chain decided (the SDK's ToolCallDecision is one extension's reply). */
export interface InterceptedToolCall {
  block: boolean;
  reason?: string;
  /** The effective arguments after every accepted rewrite. */
  args: Record<string, unknown>;
  /** The interceptors whose rewrites made `args`, in order (absent: the model's own arguments). */
  rewrittenBy?: string[];
  /**
   * What interceptors said about confirmation: "ask" (some interceptor insists on it) wins over
   * "allow" (skip it); absent: the permission policy alone decides.
   */
  permission?: { decision: "allow" | "ask"; by: string; reason?: string };
  /** Text for the model, given with the call's result. */
  context?: string[];
}

/** A settled call as tool_result interception sees it. */
export interface ToolResultInput {
  toolId: string;
  toolName: string;
  toolArgs: Record<string, unknown>;
  status: string;
  isError: boolean;
  content: ToolContent[];
  originExtension?: string;
}

/** What the tool_result chain decided: the content the model gets, and text added after it. */
export interface InterceptedToolResult {
  content: ToolContent[];
  /** The interceptors that replaced the content, in order. */
  replacedBy?: string[];
  context?: string[];
}

/** A prompt about to reach the model. */
export interface PromptInput {
  text: string;
  imageCount: number;
}

/** What the user_prompt_submit chain decided. */
export interface InterceptedPrompt {
  block: boolean;
  reason?: string;
  extension?: string;
  /** Text for the model, given with the prompt. */
  context?: string[];
}

/** An interceptor's answer in the user's place (tool_confirmation). */
export interface ConfirmationAnswer {
  decision: "allow" | "deny";
  by: string;
  reason?: string;
}

/** A call the user is about to be asked to confirm. */
export interface ConfirmationInput {
  toolId: string;
  toolName: string;
  toolArgs: Record<string, unknown>;
  preview: string;
}

/** The agent is about to end its run: the last text the user saw, and how often it was continued. */
export interface AgentEndInput {
  text: string;
  /** Continuations in a row already made by this chain for this prompt (0 the first time). */
  continuations: number;
}

/** What the before_agent_end chain decided: undefined `continueWith` lets the run end. */
export interface InterceptedAgentEnd {
  continueWith?: string;
  extension?: string;
}

/** What the turn_start interceptor chain decided. */
export interface InterceptedTurnStart {
  block: boolean;
  reason?: string;
  /** The extension that blocked, when one did. */
  extension?: string;
}

/** What the assistant_message interceptor chain decided. */
export interface InterceptedAssistantMessage {
  block: boolean;
  reason?: string;
  /** The extension that blocked, when one did (its name is shown with the reason). */
  extension?: string;
  /** The user-visible text after every accepted rewrite. */
  text: string;
}

export interface AgentHooks {
  /** Runs the before_agent_start chain; returns the (possibly replaced) system prompt. */
  beforeAgentStart(input: BeforeAgentStartInput): Promise<string>;
  interceptTurnStart(step: number, signal?: AbortSignal): Promise<InterceptedTurnStart>;
  interceptToolCall(call: ProposedToolCall, signal?: AbortSignal): Promise<InterceptedToolCall>;
  /** True while any extension intercepts assistant_message: then text must not stream live. */
  interceptsAssistantMessage(): boolean;
  interceptAssistantMessage(text: string, signal?: AbortSignal): Promise<InterceptedAssistantMessage>;
  /** The chain over a settled call's result before the model gets it. */
  interceptToolResult(result: ToolResultInput, signal?: AbortSignal): Promise<InterceptedToolResult>;
  /** The chain over a prompt about to reach the model (it is not in the transcript yet). */
  interceptPrompt(prompt: PromptInput, signal?: AbortSignal): Promise<InterceptedPrompt>;
  /** The chain at the end of a run: an interceptor may continue the agent with a prompt. */
  interceptAgentEnd(end: AgentEndInput, signal?: AbortSignal): Promise<InterceptedAgentEnd>;
  /** The chain before the user is asked to confirm a call: an interceptor may answer in their place. */
  interceptConfirmation(input: ConfirmationInput, signal?: AbortSignal): Promise<ConfirmationAnswer | undefined>;
}

export const NO_HOOKS: AgentHooks = {
  beforeAgentStart: async ({ systemPrompt }) => systemPrompt,
  interceptTurnStart: async () => ({ block: false }),
  interceptToolCall: async (call) => ({ block: false, args: call.toolArgs }),
  interceptsAssistantMessage: () => false,
  interceptAssistantMessage: async (text) => ({ block: false, text }),
  interceptToolResult: async (result) => ({ content: result.content }),
  interceptPrompt: async () => ({ block: false }),
  interceptAgentEnd: async () => ({}),
  interceptConfirmation: async () => undefined,
};
