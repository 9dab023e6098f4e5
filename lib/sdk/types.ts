// The shapes extension code sees: host info, handler contexts and signatures, interceptor
// decisions. Wire frames stay snake_case (lib/protocol); what the SDK hands to handlers is
// camelCase, except lifecycle event payloads, which are passed through as the host sent them.
import type { ContentBlock, EventFrame, LifecycleEventName } from "../protocol/index.ts";

export type Awaitable<T> = T | Promise<T>;
export type JsonObject = Record<string, unknown>;

/** What the host said about itself in `hello_ack`. Absent fields stay undefined. */
export interface HostInfo {
  protocolVersion: number;
  zotVersion?: string;
  provider?: string;
  model?: string;
  /** The user's project directory (the extension itself runs in its own directory). */
  cwd?: string;
  /** Where the extension is installed; a good place for its own state. */
  extensionDir?: string;
  dataDir?: string;
  /** Host capabilities, e.g. `call_tool`. Empty for hosts that send none. */
  capabilities: string[];
}

export interface CallToolOptions {
  /** Aborting sends `call_tool_cancel` and rejects with a `CallToolError` (code "cancelled"). */
  signal?: AbortSignal;
  /** Default 60 s (the host's own limit). On expiry the SDK sends `call_tool_cancel`. */
  timeoutMs?: number;
}

/** The host's answer to `callTool`. A failing tool or a policy refusal sets `isError`. */
export interface CallToolResult {
  name?: string;
  content: ContentBlock[];
  isError: boolean;
  /** The host shortened the result to its 256 KiB bound. */
  truncated: boolean;
}

/** Passed to every command and tool handler. */
export interface HandlerContext {
  /** The host's request id (`command_invoked.id` / `tool_call.id`). */
  id: string;
  /** The registered name that was invoked. */
  name: string;
  /** Aborted on shutdown and EOF, and for tools also on `tool_cancel`. Its reason is a
   * `HandlerAbortedError`. Once aborted, a tool's result is discarded (the host ignores it). */
  signal: AbortSignal;
  host: HostInfo;
  /** `Extension.callTool`; inside a tool handler it sets `parent_id` to this call's id and is
   * cancelled together with it. */
  callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult>;
}

export type CommandContext = HandlerContext;
export type ToolContext = HandlerContext;

/** A lifecycle notification as the host sent it (fields per event, see the spec's payload table). */
export type LifecycleEvent = EventFrame & { event: LifecycleEventName | (string & {}) } & JsonObject;

export type EventHandler = (event: LifecycleEvent) => Awaitable<void>;
export type PanelKeyHandler = (key: string, text: string) => Awaitable<void>;
export type PanelCloseHandler = () => Awaitable<void>;

export interface ToolDefinition {
  description: string;
  /** JSON Schema of the args object. Default `{"type":"object","properties":{}}`. */
  schema?: JsonObject;
  /** Registered but hidden until a tool result names it in `activateTools`. */
  deferred?: boolean;
  /** Waits for the user: no host reply deadline; the handler must honour `ctx.signal`. */
  interactive?: boolean;
}

/** The content of a panel frame. */
export interface PanelView {
  title?: string;
  lines?: string[];
  footer?: string;
}

export interface BeforeAgentStartEvent {
  systemPrompt: string;
  sessionId?: string;
  agentRunId?: string;
  cwd?: string;
  provider?: string;
  model?: string;
}

/** Simple tool-call guard verdict. */
export interface ToolCallVerdict {
  allow: boolean;
  reason?: string;
}

/**
 * Rich tool-call decision; `{}` allows unchanged. `modifiedArgs` must be a JSON object. With a
 * host that speaks intercept_v2: `decision` "allow" skips the user's confirmation, "ask" insists
 * on it; `additionalContext` is given to the model with the call's result.
 */
export interface ToolCallDecision {
  block?: boolean;
  reason?: string;
  modifiedArgs?: JsonObject;
  decision?: "allow" | "ask";
  additionalContext?: string;
}

/** A call that ran, as tool_result interception sees it (intercept_v2). */
export interface ToolResultEvent {
  toolId: string;
  toolName: string;
  args: JsonObject;
  status: string;
  isError: boolean;
  content: JsonObject[];
}

/** `replaceContent` is what the model gets instead of the output; `additionalContext` comes after it. */
export interface ToolResultDecision {
  replaceContent?: JsonObject[];
  additionalContext?: string;
}

/** A prompt about to reach the model (intercept_v2). */
export interface UserPromptEvent {
  text: string;
  imageCount: number;
}

/** `block` keeps the prompt from the model (with `reason` for the user); `additionalContext` goes with it. */
export interface UserPromptDecision {
  block?: boolean;
  reason?: string;
  additionalContext?: string;
}

/** The agent is about to end its run (intercept_v2): its last text, and how often it was continued in a row. */
export interface AgentEndEvent {
  text: string;
  continuations: number;
}

/** `continueWith` continues the agent with that prompt instead of ending. */
export interface AgentEndDecision {
  continueWith?: string;
}

/** The user is about to be asked to confirm a call (intercept_v2). */
export interface ToolConfirmationEvent {
  toolId: string;
  toolName: string;
  args: JsonObject;
  preview: string;
}

/** `allow` approves in the user's place, `block` denies (with `reason`); `{}` asks the user. */
export interface ToolConfirmationDecision {
  allow?: boolean;
  block?: boolean;
  reason?: string;
}

export interface TurnStartDecision {
  block?: boolean;
  reason?: string;
}

/** `replaceText` (non-empty, ignored when blocking) is what the user sees instead. */
export interface AssistantMessageDecision {
  block?: boolean;
  reason?: string;
  replaceText?: string;
}

/** Returns the exact replacement prompt (`""` removes it), or undefined to keep it. */
export type BeforeAgentStartInterceptor = (event: BeforeAgentStartEvent) => Awaitable<string | undefined | void>;
export type ToolCallInterceptor = (tool: string, args: JsonObject) => Awaitable<ToolCallVerdict | undefined | void>;
export type ToolCallXInterceptor = (tool: string, args: JsonObject) => Awaitable<ToolCallDecision | undefined | void>;
export type TurnStartInterceptor = (step: number) => Awaitable<TurnStartDecision | undefined | void>;
export type AssistantMessageInterceptor = (text: string) => Awaitable<AssistantMessageDecision | undefined | void>;

export type ToolResultInterceptor = (result: ToolResultEvent) => Awaitable<ToolResultDecision | undefined | void>;
export type UserPromptInterceptor = (prompt: UserPromptEvent) => Awaitable<UserPromptDecision | undefined | void>;
export type AgentEndInterceptor = (end: AgentEndEvent) => Awaitable<AgentEndDecision | undefined | void>;
export type ToolConfirmationInterceptor = (call: ToolConfirmationEvent) => Awaitable<ToolConfirmationDecision | undefined | void>;

export interface Interceptors {
  beforeAgentStart?: BeforeAgentStartInterceptor;
  toolCall?: ToolCallInterceptor;
  toolCallX?: ToolCallXInterceptor;
  turnStart?: TurnStartInterceptor;
  assistantMessage?: AssistantMessageInterceptor;
  toolResult?: ToolResultInterceptor;
  userPrompt?: UserPromptInterceptor;
  agentEnd?: AgentEndInterceptor;
  toolConfirmation?: ToolConfirmationInterceptor;
}
