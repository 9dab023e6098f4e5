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

/** Rich tool-call decision; `{}` allows unchanged. `modifiedArgs` must be a JSON object. */
export interface ToolCallDecision {
  block?: boolean;
  reason?: string;
  modifiedArgs?: JsonObject;
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

export interface Interceptors {
  beforeAgentStart?: BeforeAgentStartInterceptor;
  toolCall?: ToolCallInterceptor;
  toolCallX?: ToolCallXInterceptor;
  turnStart?: TurnStartInterceptor;
  assistantMessage?: AssistantMessageInterceptor;
}
