// A tool the agent can run: built-in tools are factories bound to a cwd; extension tools are
// proxies to a subprocess. Contract: `execute` never throws for the model's mistakes or the
// tool's own failures; it returns content with `isError`, and a typed `status` when the
// outcome is not a plain completion or failure (blocked by policy, cancelled, timed out).
import type { ImageBlock, TextBlock, ToolSpec } from "../providers/types.ts";

export type ToolContent = TextBlock | ImageBlock;

export type ToolStatus = "completed" | "failed" | "blocked" | "cancelled" | "timed_out";

export interface ToolOutcome {
  content: ToolContent[];
  isError?: boolean;
  /** Typed classification; absent means completed (or failed when `isError`). */
  status?: ToolStatus;
  /** Names of deferred tools this result activates. */
  activateTools?: string[];
  /** Details for the UI and session; of these only `diff` reaches observers (the tool_result event). */
  details?: Record<string, unknown>;
}

export interface ToolExecutionContext {
  cwd: string;
  signal: AbortSignal;
  /** A running tool's progress line (bash output, for example). */
  onProgress?: (text: string) => void;
  /** The transcript id of this call, and where it came from. */
  toolId?: string;
  /** Set when the call was requested by an extension through `call_tool`. */
  originExtension?: string;
  /** The host's `tool_call` correlation id of a parent call, for nested `call_tool`. */
  parentId?: string;
}

export interface Tool extends ToolSpec {
  /** "builtin", or the extension that registered it. */
  source: { kind: "builtin" } | { kind: "extension"; extension: string };
  deferred?: boolean;
  interactive?: boolean;
  /**
   * Calls of this tool proposed together in one response run concurrently (their interception
   * and permission stages still one at a time); other tools run one call after another.
   */
  concurrent?: boolean;
  /** One line shown in confirmations and compact tool lines. */
  preview?(args: Record<string, unknown>): string;
  /**
   * The unified diff the call would make to a file, computed without side effects, so a
   * confirmation can show it; may throw (then nothing is shown).
   */
  change?(args: Record<string, unknown>): Promise<string>;
  execute(args: Record<string, unknown>, ctx: ToolExecutionContext): Promise<ToolOutcome>;
}

export function textOutcome(text: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return { content: [{ type: "text", text }], ...extra };
}

export function errorOutcome(text: string, status: ToolStatus = "failed"): ToolOutcome {
  return { content: [{ type: "text", text }], isError: true, status };
}
