// One client tool call as the loop's tool runner takes it (request) and returns it, settled.
// The session runs every call, the model's and an extension's, through the same runner. What a
// tool returns is a ToolOutcome (lib/tools/types.ts); the runner adds what only it knows.
import type { ToolContent, ToolOutcome, ToolStatus } from "../../tools/types.ts";

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

/**
 * A call with its terminal ToolOutcome: which call it was, its effective arguments, whether the
 * tool ran, and a decided `status` and `isError` (a refused call never reached the tool).
 * `content` is the full result the model receives.
 */
export interface SettledToolCall extends ToolOutcome {
  toolId: string;
  toolName: string;
  /** Effective arguments, or the last proposed ones for a call refused before execution. */
  args: Record<string, unknown>;
  content: ToolContent[];
  isError: boolean;
  status: ToolStatus;
  executed: boolean;
}
