// One client tool call as the loop's tool runner takes it (request) and returns it (outcome).
// The session runs every call, the model's and an extension's, through the same runner.
import type { ToolContent, ToolStatus } from "../../tools/types.ts";

export interface ToolCallRequest {
  toolId: string;
  toolName: string;
  /** Parsed arguments as proposed (`{}` when none). */
  args: Record<string, unknown>;
  /** The raw argument text when the model's arguments were not a JSON object. */
  argsRaw?: string;
  originExtension?: string;
  /** The host's correlation id of a parent extension tool call (nested `call_tool`). */
  parentId?: string;
  /**
   * Runs the pre-execution stages (interception, confirmation, permission) of calls that execute
   * concurrently one at a time, so confirmations never overlap; absent: run them directly.
   */
  admission?: Admission;
}

export type Admission = <T>(stage: () => Promise<T>) => Promise<T>;

/** The terminal outcome of a call; `content` is the full result the model receives. */
export interface ToolRunOutcome {
  toolId: string;
  toolName: string;
  /** Effective arguments, or the last proposed ones for a call refused before execution. */
  args: Record<string, unknown>;
  content: ToolContent[];
  isError: boolean;
  status: ToolStatus;
  executed: boolean;
  activateTools?: string[];
  details?: Record<string, unknown>;
}
