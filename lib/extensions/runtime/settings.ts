// Timeouts and limits of the host, with the spec's values as defaults. Tests shrink them.
import {
  CALL_TOOL_TIMEOUT_MS, HELLO_TIMEOUT_MS, INTERCEPT_MAX_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, MAX_FRAME_BYTES, OUTBOUND_QUEUE_MAX_BYTES,
  OUTBOUND_QUEUE_MAX_FRAMES, READY_IDLE_MS, READY_TIMEOUT_MS, SHUTDOWN_GRACE_MS, TOOL_CALL_TIMEOUT_MS, WRITE_TIMEOUT_MS,
} from "../../protocol/limits.ts";

import { DEFAULT_TOOL_OUTPUT_BYTES } from "./output-cap.ts";



export interface HostTimeouts {
  /** Spawn → first `hello` frame. */
  hello: number;
  /**
   * An MCP server's hello deadline: start → initialized with its lists. A server's own
   * `startup_timeout_ms` (one started through `npx` may fetch its package first) overrides it.
   */
  mcpStart: number;
  /** `hello_ack` → `ready` at the latest; after it a legacy extension is auto-readied. */
  ready: number;
  /** Silence after `hello_ack` (or the last frame) that auto-readies a legacy extension sooner. */
  readyIdle: number;
  /** `event_intercept` reply deadline. */
  intercept: number;
  /** The longest interception deadline a subscription may ask for (`intercept_timeout_ms`). */
  interceptMax: number;
  /** Non-interactive extension `tool_call` reply deadline. */
  toolCall: number;
  /** `call_tool` request deadline. */
  callTool: number;
  /** `command_invoked` reply deadline (the spec sets none; a hung command must not hang zot). */
  command: number;
  /** Each shutdown stage: drain, `shutdown` → exit, SIGTERM → exit. */
  shutdownGrace: number;
  /** One frame may stay blocked in the pipe (or the socket) at most this long. */
  write: number;
  /** A WebSocket extension is pinged this often; one that missed the last pong is gone (dead within two). */
  ping: number;
  /** The first reconnect delay of a WebSocket extension, doubled per failed try up to `reconnectMax`. */
  reconnect: number;
  reconnectMax: number;
}

export interface HostLimits {
  maxFrameBytes: number;
  queueFrames: number;
  queueBytes: number;
  /** Text of one extension or MCP tool result the model gets (output-cap.ts). */
  toolOutputBytes: number;
  /** Failed reconnects in a row after which zot gives up on a WebSocket extension (until /reload-ext). */
  reconnectAttempts: number;
}

export const DEFAULT_TIMEOUTS: HostTimeouts = {
  hello: HELLO_TIMEOUT_MS,
  mcpStart: HELLO_TIMEOUT_MS,
  ready: READY_TIMEOUT_MS,
  readyIdle: READY_IDLE_MS,
  intercept: INTERCEPT_TIMEOUT_MS,
  interceptMax: INTERCEPT_MAX_TIMEOUT_MS,
  toolCall: TOOL_CALL_TIMEOUT_MS,
  callTool: CALL_TOOL_TIMEOUT_MS,
  command: TOOL_CALL_TIMEOUT_MS,
  shutdownGrace: SHUTDOWN_GRACE_MS,
  write: WRITE_TIMEOUT_MS,
  ping: 15_000,
  reconnect: 500,
  reconnectMax: 30_000,
};

export const DEFAULT_LIMITS: HostLimits = {
  maxFrameBytes: MAX_FRAME_BYTES,
  queueFrames: OUTBOUND_QUEUE_MAX_FRAMES,
  queueBytes: OUTBOUND_QUEUE_MAX_BYTES,
  toolOutputBytes: DEFAULT_TOOL_OUTPUT_BYTES,
  reconnectAttempts: 8,
};

/** The variable that shortens or lengthens the host's deadlines: `write=500,hello=2000` (milliseconds). */
export const TIMEOUTS_ENV = "ZOT_EXTENSION_TIMEOUTS";

/**
 * Deadlines from `ZOT_EXTENSION_TIMEOUTS` (a slow machine, a test of the built binary); `problems`
 * names what could not be used (unknown names, values that are not positive whole numbers).
 */
export function timeoutsFromEnv(value: string | undefined): { timeouts: Partial<HostTimeouts>; problems: string[] } {
  const timeouts: Partial<HostTimeouts> = {};
  const problems: string[] = [];
  for (const part of (value ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [name = "", text = ""] = part.split("=").map((p) => p.trim());
    const ms = Number(text);
    if (!(name in DEFAULT_TIMEOUTS)) problems.push(`${TIMEOUTS_ENV}: unknown deadline "${name}" (known: ${Object.keys(DEFAULT_TIMEOUTS).join(", ")})`);
    else if (!Number.isInteger(ms) || ms <= 0) problems.push(`${TIMEOUTS_ENV}: ${name} needs a positive number of milliseconds, got "${text}"`);
    else timeouts[name as keyof HostTimeouts] = ms;
  }
  return { timeouts, problems };
}
