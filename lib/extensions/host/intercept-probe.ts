// `zot ext doctor`'s interceptor probe: one harmless `event_intercept` per event an extension
// intercepts, to learn whether and how fast it answers under its real deadline. The answer is
// discarded (nothing runs in doctor); the payloads are marked as a probe where a field allows.
import { sameJson } from "../../protocol/json-object.ts";
import type { EventInterceptResponseFrame } from "../../protocol/extension-frames.ts";
import type { FailurePolicy } from "../catalog/permissions/manifest-permissions.ts";
import type { FailurePolicySource } from "../catalog/permissions/extension-permissions.ts";
import type { LoadedExtension } from "../runtime/extension.ts";

export interface InterceptorProbe {
  event: string;
  /** answered: a valid reply; timed_out: none within the deadline; failed: crash or invalid reply. */
  outcome: "answered" | "timed_out" | "failed";
  /** From the request to the reply (or to the failure). */
  latency_ms: number;
  /** The answer changed what it was shown (modified_args, replace_text, system_prompt). */
  rewrote: boolean;
}

/** What an interceptor of one event does when it fails, and how it answered the probe. */
export interface InterceptorReport {
  event: string;
  on_failure: FailurePolicy;
  on_failure_from: FailurePolicySource;
  /** null: not probed (only `zot ext doctor` probes). */
  probe: InterceptorProbe["outcome"] | null;
  latency_ms: number | null;
  /** Whether its answer to the probe rewrote what it was shown; null: not probed. */
  rewrote: boolean | null;
  /** How many times it rewrote what it intercepted in this session. */
  rewrites: number;
  /** Its reply deadline: the host's, or the longer one its subscription asked for (intercept_v2). */
  timeout_ms: number;
  /** Whether `timeout_ms` is the one its subscription asked for. */
  timeout_requested: boolean;
}

const PROBE_TEXT = "(zot ext doctor probe)";

function probePayload(event: string, host: { cwd: string; provider: string; model: string }): Record<string, unknown> {
  switch (event) {
    case "tool_call": return { tool_id: "zot-doctor-probe", tool_name: "zot_doctor_probe", tool_args: {} };
    case "turn_start": return { step: 1 };
    case "assistant_message": return { text: PROBE_TEXT };
    case "tool_result": return { tool_id: "zot-doctor-probe", tool_name: "zot_doctor_probe", tool_args: {}, status: "completed",
      result: { content: [{ type: "text", text: PROBE_TEXT }], is_error: false } };
    case "user_prompt_submit": return { text: PROBE_TEXT };
    case "before_agent_end": return { text: PROBE_TEXT, continuations: 0 };
    case "tool_confirmation": return { tool_id: "zot-doctor-probe", tool_name: "zot_doctor_probe", tool_args: {}, tool_preview: PROBE_TEXT };
    default: return { session_id: "zot-doctor-probe", agent_run_id: "zot-doctor-probe", ...host, system_prompt: "" };
  }
}

/** Probes each intercepted event of `ext` in turn (its answers are serial anyway). */
export async function probeInterceptors(ext: LoadedExtension, host: { cwd: string; provider: string; model: string },
  timeoutMs: number): Promise<InterceptorProbe[]> {
  const probes: InterceptorProbe[] = [];
  for (const event of ext.intercepts) {
    if (!ext.alive) break;
    const started = performance.now();
    const reply = await ext.driver.intercept({ event, ...probePayload(event, host) },
      { idKind: "probe", timeoutMs: ext.interceptTimeoutMs ?? timeoutMs, deadlineIncludesWrite: event === "before_agent_start" });
    const latency = Math.round(performance.now() - started);
    probes.push({ event, outcome: reply.ok ? "answered" : reply.reason === "timeout" ? "timed_out" : "failed", latency_ms: latency,
      rewrote: reply.ok && rewrites(event, reply.frame) });
  }
  return probes;
}

/** Whether an answer to the probe changes what the probe showed (probePayload's values). */
function rewrites(event: string, frame: EventInterceptResponseFrame): boolean {
  if (event === "tool_call") return frame.modified_args !== undefined && !sameJson(frame.modified_args, {});
  if (event === "assistant_message") return frame.replace_text !== undefined && frame.replace_text !== PROBE_TEXT;
  if (event === "before_agent_start") return frame.system_prompt !== undefined && frame.system_prompt !== "";
  return false;
}

export function interceptorReports(ext: LoadedExtension, probes: InterceptorProbe[] | undefined, hostTimeoutMs: number): InterceptorReport[] {
  return [...ext.intercepts].map((event) => {
    const probe = probes?.find((p) => p.event === event);
    return {
      event, on_failure: ext.permissions.failurePolicy(event), on_failure_from: ext.permissions.failurePolicySource(event),
      probe: probe?.outcome ?? null, latency_ms: probe?.latency_ms ?? null, rewrote: probe?.rewrote ?? null,
      rewrites: ext.rewrites.get(event) ?? 0,
      timeout_ms: ext.interceptTimeoutMs ?? hostTimeoutMs, timeout_requested: ext.interceptTimeoutMs !== undefined,
    };
  });
}
