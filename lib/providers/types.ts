// The one streaming interface every LLM provider implements. Contract: `stream` never throws
// for request or model failures; it always ends with a `done` event whose message carries stop
// reason `error` or `aborted` (and `error` text) when things went wrong. Messages, their blocks
// and Usage are written out as they are (session files, rpc get_messages, usage events), so
// their fields are snake_case; ModelInfo likewise (rpc get_models).

export interface TextBlock {
  type: "text";
  text: string;
  /** Opaque provider proof (Gemini's `thoughtSignature`) to send back on this block unchanged. */
  signature?: string;
}
/** base64 image bytes; `mime_type` as in the extension protocol. */
export interface ImageBlock { type: "image"; mime_type: string; data: string }
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  /** Opaque provider proof that must be sent back unchanged for the block to be accepted. */
  signature?: string;
  /** The provider withheld the reasoning text: `signature` holds its encrypted form. */
  redacted?: boolean;
}
export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent none. */
  args: Record<string, unknown>;
  /** The raw argument text when it was not a JSON object (then `args` is `{}`). */
  args_raw?: string;
  /** Opaque provider proof (Gemini's `thoughtSignature`) to send back on this call unchanged. */
  signature?: string;
}

export type UserContent = TextBlock | ImageBlock;
export type AssistantContent = TextBlock | ThinkingBlock | ToolCallBlock;
export type ToolResultContent = TextBlock | ImageBlock;

/** One vocabulary for every provider; `length` is a response cut off at its output limit. */
export type StopReason = "end_turn" | "tool_use" | "length" | "error" | "aborted";

export interface Usage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cost_usd: number;
}

export interface UserMessage { role: "user"; content: UserContent[]; timestamp?: number }
export interface AssistantMessage {
  role: "assistant";
  content: AssistantContent[];
  stop: StopReason;
  error?: string;
  usage?: Usage;
  provider?: string;
  model?: string;
  timestamp?: number;
}
export interface ToolResultMessage {
  role: "tool_result";
  tool_id: string;
  tool_name: string;
  content: ToolResultContent[];
  is_error: boolean;
  timestamp?: number;
}
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** What the model is told about a tool: a JSON Schema object for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export type ReasoningEffort = "low" | "medium" | "high";

export interface StreamRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  reasoning?: ReasoningEffort;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** What a provider stream yields (the json/rpc lines are streamSchema.StreamEvent, another thing). */
export type ModelStreamEvent =
  | { type: "text_delta"; delta: string }
  | { type: "thinking_delta"; delta: string }
  /** A tool call started (no `delta`) or received a fragment of its raw argument JSON. */
  | { type: "tool_call_delta"; id: string; name: string; delta?: string }
  | { type: "retry"; attempt: number; delayMs: number; error: string; status?: number }
  | { type: "done"; message: AssistantMessage };

export interface Provider {
  readonly name: string;
  stream(request: StreamRequest): AsyncIterable<ModelStreamEvent>;
}

export interface ModelInfo {
  provider: string;
  id: string;
  context_window: number;
  /** USD per million tokens. */
  cost: { input: number; output: number; cache_read: number; cache_write: number };
  /** Most output tokens one response may have, when known. */
  max_output?: number;
  /**
   * How the model takes a reasoning effort: a thinking-token budget, adaptive thinking, or an
   * effort parameter (OpenAI reasoning models). Absent for a model that does not reason.
   */
  thinking?: "budget" | "adaptive" | "effort";
  /** The vendor's end-of-life date when the model is deprecated. */
  deprecated?: string;
}
