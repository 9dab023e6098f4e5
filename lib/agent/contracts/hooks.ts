// The interception points the agent loop awaits, shared by loop/ and session/. The extension
// host implements them; a run without extensions uses `NO_HOOKS`. Contract: hooks never throw — a failing or slow
// interceptor means "allow, unchanged" (the spec's fail-open rule), decided by the host.

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
}

export const NO_HOOKS: AgentHooks = {
  beforeAgentStart: async ({ systemPrompt }) => systemPrompt,
  interceptTurnStart: async () => ({ block: false }),
  interceptToolCall: async (call) => ({ block: false, args: call.toolArgs }),
  interceptsAssistantMessage: () => false,
  interceptAssistantMessage: async (text) => ({ block: false, text }),
};
