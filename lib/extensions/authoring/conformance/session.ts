// State shared by the checks of one `zot ext test` run, and its timeouts. Every deadline is an
// option so tests can shrink them; the defaults are the protocol's, except the reply deadline
// for commands and tools, which is shorter than the host's 60 s so a hung handler fails fast.
import {
  HELLO_TIMEOUT_MS, INTERCEPT_TIMEOUT_MS, READY_TIMEOUT_MS, SHUTDOWN_GRACE_MS,
  type InterceptableEventName, type LifecycleEventName, type RegisterToolFrame,
} from "../../../protocol/index.ts";
import type { Manifest } from "../../catalog/manifest.ts";
import { describeExit, type ExitStatus } from "../../runtime/spawn.ts";
import type { ConformanceDriver } from "./driver.ts";
import type { SessionInfo } from "./payloads.ts";
import type { Checklist } from "./report.ts";

export interface ConformanceTimeouts {
  /** Spawn → the first `hello`. */
  hello: number;
  /** `hello_ack` → `ready`; without it the host auto-readies (a warning here). */
  ready: number;
  /** `command_invoked` → `command_response`, and `tool_call` → `tool_result`. */
  reply: number;
  /** `event_intercept` → `event_intercept_response`. */
  intercept: number;
  /** `shutdown` → `shutdown_ack` and exit; also each stage of terminating a holdout. */
  shutdownGrace: number;
  /** How long to watch a process that owes no reply (after events, after `tool_cancel`) before calling it alive. */
  settle: number;
}

export const DEFAULT_REPLY_TIMEOUT_MS = 10_000;

export const DEFAULT_CONFORMANCE_TIMEOUTS: ConformanceTimeouts = {
  hello: HELLO_TIMEOUT_MS,
  ready: READY_TIMEOUT_MS,
  reply: DEFAULT_REPLY_TIMEOUT_MS,
  intercept: INTERCEPT_TIMEOUT_MS,
  shutdownGrace: SHUTDOWN_GRACE_MS,
  settle: 200,
};

/** What the checks know about the extension under test, filled in as the run goes. */
export interface Session {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly driver: ConformanceDriver;
  readonly list: Checklist;
  readonly timeouts: ConformanceTimeouts;
  readonly info: SessionInfo;
  /** hello_ack's data_dir: a scratch folder, so placeholder tool calls touch no real state. */
  readonly dataDir: string;
  capabilities: string[];
  commands: string[];
  tools: RegisterToolFrame[];
  events: LifecycleEventName[];
  intercepts: InterceptableEventName[];
  /** A check already failed because the process exited; later checks only skip. */
  exitReported: boolean;
  /** The checker had to terminate the process group (shutdown was not honoured). */
  terminated: boolean;
  /** Request ids, unique for the run. */
  nextId(kind: string): string;
}

/** "it exited with status 3" / "it was terminated by signal SIGKILL" / "it could not start (spawn … ENOENT)". */
export function exitPhrase(status: ExitStatus): string {
  return status.error ? `it could not start (${status.error})` : `it ${describeExit(status)}`;
}

/**
 * When the extension is gone, later checks cannot run: returns the reason to skip (and nothing
 * while it still runs).
 */
export function goneReason(s: Session): string | undefined {
  const status = s.driver.exitStatus();
  if (!status) return undefined;
  return `the extension is no longer running (${exitPhrase(status)})`;
}
