// What the agent loop is given and what it returns: the injected provider, tools, hooks, event
// sink and message store (LoopEnv), and how a run ended (RunResult). The session builds the
// options; the loop owns only the ordering.
import type { Emitter } from "./emitter.ts";
import type { AgentHooks } from "./hooks.ts";
import type { SettledToolCall, ToolCallRequest } from "./tool-call.ts";
import type { AssistantMessage, Message, Provider, ReasoningEffort, StopReason } from "../../providers/types.ts";
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
  /** before_agent_end continuations in a row after which the run ends anyway (default 8, as Claude Code). */
  maxContinuations?: number;
  runTool: (call: ToolCallRequest) => Promise<SettledToolCall>;
  /** Runs before each model step (automatic compaction). */
  beforeStep?: (signal: AbortSignal) => Promise<void>;
  /** Receives each step's final assistant message (usage accounting). */
  onStepEnd?: (message: AssistantMessage) => void;
  /**
   * The provider refused a request and blamed this tool: take it out of `tools()` for good.
   * false when it cannot be dropped (a built-in); then the request is not sent again.
   */
  dropTool?: (name: string, error: string) => boolean;
}

/** The part of the session's transcript the loop writes to: appended messages, with their origin. */
export interface TranscriptSink {
  append(message: Message, originExtension?: string): void;
}
