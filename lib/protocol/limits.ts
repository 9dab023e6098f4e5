// Every limit and default timeout of the extension protocol, in one place. Hosts and SDKs take
// these as option defaults so tests can shrink the timeouts instead of sleeping.

export const PROTOCOL_VERSION = 1;

/** Largest inbound or outbound frame, in bytes, excluding the newline. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** Outbound queue per extension: frames and bytes queued, plus one frame in flight. */
export const OUTBOUND_QUEUE_MAX_FRAMES = 256;
export const OUTBOUND_QUEUE_MAX_BYTES = 16 * 1024 * 1024;

/** A synchronous write to an extension's stdin may block at most this long. */
export const WRITE_TIMEOUT_MS = 5_000;

/** Reply deadline for `event_intercept` (including the request write for before_agent_start). */
export const INTERCEPT_TIMEOUT_MS = 5_000;

/** The longest interception deadline a subscription may ask for (`intercept_timeout_ms`, intercept_v2). */
export const INTERCEPT_MAX_TIMEOUT_MS = 600_000;

/** Reply deadline for a non-interactive `tool_call`, and for a `call_tool` request. */
export const TOOL_CALL_TIMEOUT_MS = 60_000;
export const CALL_TOOL_TIMEOUT_MS = 60_000;

/** `shutdown` → wait this long for `shutdown_ack`/exit → SIGTERM → same again → SIGKILL. */
export const SHUTDOWN_GRACE_MS = 2_000;

/** How long the host waits for the first `hello` frame before giving up on an extension. */
export const HELLO_TIMEOUT_MS = 5_000;

/** How long the host waits for `ready` after `hello_ack` at most before auto-readying a legacy extension. */
export const READY_TIMEOUT_MS = 1_000;

/** A legacy extension silent this long after `hello_ack` (or its last frame) is auto-readied earlier. */
export const READY_IDLE_MS = 250;

/** `call_tool` results and `tool_result` observations are bounded. */
export const CALL_TOOL_RESULT_MAX_BYTES = 256 * 1024;
export const OBSERVATION_MAX_BYTES = 256 * 1024;
export const OBSERVATION_MAX_BLOCKS = 128;

/** A chain of nested `call_tool` requests holds at most this many calls, the original included. */
export const CALL_TOOL_MAX_CHAIN = 4;

/** The encoded `system_prompt` of a before_agent_start response. */
export const SYSTEM_PROMPT_MAX_BYTES = 1024 * 1024;

/** Names of the built-in tools; extension tools of the same name are shadowed. */
export const BUILTIN_TOOL_NAMES = ["read", "write", "edit", "bash", "glob", "grep", "skill", "agent"] as const;

export const PANEL_KEYS = [
  "up", "down", "left", "right", "enter", "esc", "tab", "pageup", "pagedown", "home", "end", "backspace", "delete", "rune",
] as const;
export type PanelKey = (typeof PANEL_KEYS)[number];
