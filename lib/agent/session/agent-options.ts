// Options and observable state of an AgentSession (see agent-session.ts).
import type { AgentHooks } from "../contracts/hooks.ts";
import type { CompactionSettings } from "../compaction/compaction.ts";
import type { EventBus } from "../event-bus.ts";
import type { Confirmer } from "../loop/permissions.ts";
import type { OpenedSession } from "./session-select.ts";
import type { Skill } from "../../tools/skill-file.ts";
import type { SystemPromptOptions } from "../../coding/system-prompt.ts";
import type { ToolExecutionObserver } from "../loop/tool-runner.ts";
import type { BuiltinToolsOptions } from "../../tools/builtin-tools.ts";
import type { ImageBlock, Provider, ReasoningEffort, Usage } from "../../providers/types.ts";
import type { Tool } from "../../tools/types.ts";

export interface AgentSessionOptions {
  cwd: string;
  provider: Provider;
  model: string;
  /** The process's event bus; its session identity is set to this session's. A new bus when absent. */
  bus?: EventBus;
  /** The extension host's interception points. */
  hooks?: AgentHooks;
  /** Built-in tools made by `createBuiltinTools` with this cwd and a live jail getter. */
  tools?: Omit<BuiltinToolsOptions, "cwd" | "jail" | "skills">;
  /** Explicit built-in tools instead of the factory (then `jail` is the caller's to wire). */
  builtinTools?: Tool[];
  /** Extension tools, asked for at every step; must leave out inactive deferred tools. */
  extraTools?: () => Tool[];
  /** Skills for the skill tool and the manifest in the system prompt (a getter for reloads). */
  skills?: Skill[] | (() => Skill[]);
  prompt?: SystemPromptOptions;
  /** Model steps per prompt (default 50). */
  maxSteps?: number;
  reasoning?: ReasoningEffort;
  maxTokens?: number;
  /** Default true; false asks the confirmer before each call. */
  yolo?: boolean;
  /** Interactive approval; absent in headless modes (then calls run after a warning). */
  confirmer?: Confirmer;
  /** Confine the built-in file tools to `cwd`. */
  jail?: boolean;
  /** From `openSession`; absent means a fresh in-memory session. */
  session?: OpenedSession;
  /** Overrides the model's known context window (tests use small ones). */
  contextWindow?: number;
  compaction?: Partial<CompactionSettings>;
  /** True where interactive tools can show their panel (the REPL); else such calls fail. */
  interactiveTools?: boolean;
  /** Told before and after each tool call executes (checkpoints record what it may change). */
  toolExecution?: ToolExecutionObserver;
  /** Non-fatal warnings for the user (stderr in headless modes). */
  onWarning?: (message: string) => void;
  /** An extension tool the provider refused; it is left out for the rest of the session. */
  onToolDropped?: (tool: Tool, error: string) => void;
  /** Names of deferred tools a tool result activated. */
  onActivateTools?: (names: string[]) => void;
  /**
   * Notes the model gets at the start of the next prompt of conversation `sessionId` (finished
   * detached agents), put before the prompt's text in its user message.
   */
  pendingNotes?: (sessionId: string) => Promise<string[]>;
  /** Ids for synthetic tool calls (tool_prompt, call_tool); injectable for tests. */
  newId?: () => string;
}

export interface PromptOptions {
  images?: ImageBlock[];
  /** The model for this prompt's run only (a command's `model`); the session's model stays. */
  model?: string;
  /** Text that goes before the prompt in the same message (the output of the user's `!` commands). */
  context?: string[];
}

export interface ToolPromptOptions {
  /** The extension whose command requested it; recorded on the call. */
  originExtension?: string;
}

export interface RunToolContext {
  /** The extension whose call_tool this is; absent for a client's call (zot mcp serve), as for the model's. */
  originExtension?: string;
  signal?: AbortSignal;
  /** The transcript-independent id for this call's events (generated when absent). */
  toolId?: string;
  parentId?: string;
}

/** Written out as is (snake_case): it is rpc `compact`'s response data. */
export interface CompactResult {
  compaction_id: string;
  status: "completed" | "failed" | "cancelled" | "timed_out";
  error?: string;
  message_count: number;
  token_estimate: number;
}

/** Written out as is (snake_case): it is rpc `get_state`'s response data (plus `extensions`). */
export interface AgentState {
  session_id: string;
  /** The session file, absent with --no-session. */
  session_file?: string;
  cwd: string;
  provider: string;
  model: string;
  running: boolean;
  queued: number;
  message_count: number;
  token_estimate: number;
  context_window: number;
  usage: Usage;
  yolo: boolean;
  jail: boolean;
  max_steps: number;
  agent_run_id?: string;
}
