// The type declarations `zot ext new --lang ts` writes beside the vendored SDK (zot-sdk.mjs), so
// editors complete its API and `tsc --noEmit` passes with no @types/node: they name no Node type.
// They mirror lib/sdk's public API; a test checks that they declare every export of the bundle.
export const TS_SDK_DECLARATIONS_FILE = "zot-sdk.d.mts";

export const TS_SDK_DECLARATIONS = `// Types of zot's TypeScript SDK (zot-sdk.mjs beside this file), written by \`zot ext new\`.
// Self-contained: no @types/node needed. Replace it with a newer copy rather than editing it.

export type Awaitable<T> = T | Promise<T>;
export type JsonObject = Record<string, unknown>;

/** The part of an AbortSignal the SDK uses (Node's, Bun's and Deno's all fit). */
export interface SignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export type ContentBlock =
  | { type: "text"; text: string; [key: string]: unknown }
  | { type: "image"; mime_type: string; data: string; [key: string]: unknown };

/** What the host said about itself in hello_ack. */
export interface HostInfo {
  protocolVersion: number;
  zotVersion?: string;
  provider?: string;
  model?: string;
  /** The user's project directory (the extension runs in its own directory). */
  cwd?: string;
  /** Where the extension is installed. */
  extensionDir?: string;
  dataDir?: string;
  /** Host capabilities, e.g. "call_tool". */
  capabilities: string[];
}

export interface CallToolOptions {
  signal?: SignalLike;
  /** Default 60 s (the host's own limit). */
  timeoutMs?: number;
}

export interface CallToolResult {
  name?: string;
  content: ContentBlock[];
  isError: boolean;
  truncated: boolean;
}

/** Passed to every command and tool handler. */
export interface HandlerContext {
  id: string;
  name: string;
  /** Aborted on shutdown and EOF, and for tools on tool_cancel. */
  signal: SignalLike;
  host: HostInfo;
  callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult>;
}
export type CommandContext = HandlerContext;
export type ToolContext = HandlerContext;

/** A lifecycle notification as the host sent it (snake_case fields, per event). */
export type LifecycleEvent = { type: "event"; event: string } & JsonObject;
export type EventHandler = (event: LifecycleEvent) => Awaitable<void>;
export type PanelKeyHandler = (key: string, text: string) => Awaitable<void>;
export type PanelCloseHandler = () => Awaitable<void>;

export interface ToolDefinition {
  description: string;
  /** JSON Schema of the args object. Default {"type":"object","properties":{}}. */
  schema?: JsonObject;
  /** Hidden until a tool result names it in activateTools. */
  deferred?: boolean;
  /** Waits for the user: no host reply deadline; honour ctx.signal. */
  interactive?: boolean;
}

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
export interface ToolCallVerdict { allow: boolean; reason?: string }
export interface ToolCallDecision {
  block?: boolean; reason?: string; modifiedArgs?: JsonObject;
  /** intercept_v2: "allow" skips the user's confirmation, "ask" insists on it. */
  decision?: "allow" | "ask";
  /** intercept_v2: text for the model, given with the call's result. */
  additionalContext?: string;
}
export interface ToolResultEvent { toolId: string; toolName: string; args: JsonObject; status: string; isError: boolean; content: JsonObject[] }
export interface ToolResultDecision { replaceContent?: JsonObject[]; additionalContext?: string }
export interface UserPromptEvent { text: string; imageCount: number }
export interface UserPromptDecision { block?: boolean; reason?: string; additionalContext?: string }
export interface AgentEndEvent { text: string; continuations: number }
export interface AgentEndDecision { continueWith?: string }
export interface ToolConfirmationEvent { toolId: string; toolName: string; args: JsonObject; preview: string }
export interface ToolConfirmationDecision { allow?: boolean; block?: boolean; reason?: string }
export interface TurnStartDecision { block?: boolean; reason?: string }
export interface AssistantMessageDecision { block?: boolean; reason?: string; replaceText?: string }
export type BeforeAgentStartInterceptor = (event: BeforeAgentStartEvent) => Awaitable<string | undefined | void>;
export type ToolCallInterceptor = (tool: string, args: JsonObject) => Awaitable<ToolCallVerdict | undefined | void>;
export type ToolCallXInterceptor = (tool: string, args: JsonObject) => Awaitable<ToolCallDecision | undefined | void>;
export type TurnStartInterceptor = (step: number) => Awaitable<TurnStartDecision | undefined | void>;
export type AssistantMessageInterceptor = (text: string) => Awaitable<AssistantMessageDecision | undefined | void>;
export type ToolResultInterceptor = (result: ToolResultEvent) => Awaitable<ToolResultDecision | undefined | void>;
export type UserPromptInterceptor = (prompt: UserPromptEvent) => Awaitable<UserPromptDecision | undefined | void>;
export type AgentEndInterceptor = (end: AgentEndEvent) => Awaitable<AgentEndDecision | undefined | void>;
export type ToolConfirmationInterceptor = (call: ToolConfirmationEvent) => Awaitable<ToolConfirmationDecision | undefined | void>;

/** What a command handler returns: one of the six command_response actions. */
export type Response = { error?: string } & (
  | { action: "prompt"; prompt: string }
  | { action: "tool_prompt"; prompt: string; toolName: string; toolArgs: JsonObject }
  | { action: "insert"; insert: string }
  | { action: "display"; display: string }
  | { action: "open_panel"; panel: PanelView & { id: string } }
  | { action: "noop" }
);

export interface ToolResult {
  content: ContentBlock[];
  isError?: boolean;
  activateTools?: string[];
}

export type CommandHandler = (args: string, ctx: CommandContext) => Awaitable<Response | undefined | void>;
export type ToolHandler = (args: JsonObject, ctx: ToolContext) => Awaitable<ToolResult | string>;
export type NotifyLevel = "info" | "success" | "warn" | "error";
export type RunOutcome = "shutdown" | "eof";

export interface ReadableLike {
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause?(): unknown;
}
export interface WritableLike {
  write(chunk: string, callback?: (err?: Error | null) => void): boolean;
  on?(event: "error", listener: (err: Error) => void): unknown;
}

export interface ExtensionOptions {
  /** Must match name in extension.json. */
  name: string;
  version?: string;
  stdin?: ReadableLike;
  stdout?: WritableLike;
  stderr?: WritableLike;
  capabilities?: string[];
  exitProcess?: boolean;
  callToolTimeoutMs?: number;
  /** intercept_v2: a longer interception deadline than the host's 5 s, up to its maximum. */
  interceptTimeoutMs?: number;
}

export interface ServeOptions {
  port?: number;
  host?: string;
  path?: string;
  closeGraceMs?: number;
}
export interface ServeHandle {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export declare class Extension {
  constructor(options: ExtensionOptions);
  readonly name: string;
  readonly version: string | undefined;
  /** Host metadata from hello_ack; undefined until it arrives. */
  get host(): HostInfo | undefined;
  command(name: string, description: string, handler: CommandHandler): this;
  tool(name: string, definition: ToolDefinition, handler: ToolHandler): this;
  onHello(fn: (host: HostInfo) => Awaitable<void>): this;
  on(event: string, handler: EventHandler): this;
  interceptBeforeAgentStart(fn: BeforeAgentStartInterceptor): this;
  interceptToolCall(fn: ToolCallInterceptor): this;
  interceptToolCallX(fn: ToolCallXInterceptor): this;
  interceptTurnStart(fn: TurnStartInterceptor): this;
  interceptAssistantMessage(fn: AssistantMessageInterceptor): this;
  interceptToolResult(fn: ToolResultInterceptor): this;
  interceptUserPrompt(fn: UserPromptInterceptor): this;
  interceptAgentEnd(fn: AgentEndInterceptor): this;
  interceptToolConfirmation(fn: ToolConfirmationInterceptor): this;
  onPanelKey(panelId: string, fn: PanelKeyHandler): this;
  onPanelClose(panelId: string, fn: PanelCloseHandler): this;
  offPanel(panelId: string): this;
  notify(level: NotifyLevel, message: string): void;
  clearNotes(): void;
  submit(text: string): void;
  renderPanel(panelId: string, view?: PanelView): void;
  closePanel(panelId: string): void;
  callTool(name: string, args?: JsonObject, options?: CallToolOptions): Promise<CallToolResult>;
  /** Writes to stderr (zot appends it to the extension's log); stdout carries frames only. */
  log(...args: unknown[]): void;
  /** One session over stdio. */
  run(): Promise<RunOutcome>;
  /** One session per WebSocket connection (loads the ws package on Node and Deno). */
  serve(options?: ServeOptions): Promise<ServeHandle>;
}
export declare function createExtension(options: ExtensionOptions): Extension;

export declare function prompt(text: string, error?: string): Response;
export declare function display(text: string, error?: string): Response;
export declare function insert(text: string, error?: string): Response;
export declare function noop(error?: string): Response;
export declare function openPanel(id: string, view?: PanelView, error?: string): Response;
export declare function toolPrompt(toolName: string, toolArgs: JsonObject, prompt: string, error?: string): Response;

export declare function textResult(text: string): ToolResult;
export declare function errorResult(text: string): ToolResult;
export declare function imageResult(data: string, mimeType: string, caption?: string): ToolResult;
export declare function activateTools(names: string[], result?: ToolResult): ToolResult;

export type CallToolErrorCode = "unsupported" | "invalid" | "cancelled" | "timeout" | "disconnected";
export declare class CallToolError extends Error {
  readonly code: CallToolErrorCode;
  constructor(code: CallToolErrorCode, message: string, options?: { cause?: unknown });
}
export type AbortCause = "tool_cancel" | "shutdown" | "eof";
export declare class HandlerAbortedError extends Error {
  readonly kind: AbortCause;
  constructor(kind: AbortCause);
}
export declare class OutboundFrameError extends Error {}
`;
