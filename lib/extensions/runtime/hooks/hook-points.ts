// Which of zot's moments the hook runner takes part in: the interception points that run each
// hook event, the lifecycle events it observes, and how zot's names map to Claude Code's.
import type { ToolOwner } from "../../../protocol/index.ts";
import type { HookEvent } from "../../catalog/hook-settings.ts";

type Payload = Record<string, unknown> & { event: string };

/** Which interception point runs which hook events. */
export const POINTS: Record<string, HookEvent[]> = {
  // SessionStart: what its hooks wrote to CLAUDE_ENV_FILE reaches each bash command.
  tool_call: ["PreToolUse", "SessionStart"],
  tool_result: ["PostToolUse", "PostToolUseFailure"],
  user_prompt_submit: ["UserPromptSubmit"],
  before_agent_end: ["Stop", "SubagentStop"],
  before_agent_start: ["SessionStart", "SubagentStart"],
  tool_confirmation: ["PermissionRequest"],
};

/** Lifecycle events the runner observes: the session's identity and transcript, and the observe-only hook events. */
export const OBSERVED = ["session_start", "session_end", "user_prompt_submit", "assistant_message", "tool_call", "tool_result",
  "turn_end", "tool_confirmation_requested", "pre_compact", "post_compact"];

/** zot's session_end reasons as Claude Code's SessionEnd reasons. */
export const END_REASONS: Record<string, string> = { shutdown: "prompt_input_exit", session_switch: "clear", cwd_change: "other" };

/** Time a hook gets beyond its own timeout before the host gives up on the answer. */
export const DEADLINE_MARGIN_MS = 2_000;

/** The intercept_v2 payload's `tool_owner`: who provides an extension's tool. */
export function ownerOf(payload: Payload): ToolOwner | undefined {
  const owner = payload.tool_owner as Partial<ToolOwner> | undefined;
  return owner && typeof owner.extension === "string" && typeof owner.kind === "string" ? owner as ToolOwner : undefined;
}
