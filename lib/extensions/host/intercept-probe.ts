// `zot ext doctor`'s interceptor probe: one harmless `event_intercept` per event an extension
// intercepts, to learn whether and how fast it answers under its real deadline. The answer is
// discarded (nothing runs in doctor); the payloads are marked as a probe where a field allows.
import type { EventInterceptResponseFrame } from "../../protocol/index.ts";
import type { FailurePolicy } from "../permissions/manifest-permissions.ts";
import type { FailurePolicySource } from "../permissions/extension-permissions.ts";
import type { LoadedExtension } from "./extension.ts";

export interface InterceptorProbe {
  event: string;
  /** answered: a valid reply; timed_out: none within the deadline; failed: crash or invalid reply. */
  outcome: "answered" | "timed_out" | "failed";
  /** From the request to the reply (or to the failure). */
  latency_ms: number;
}

/** What an interceptor of one event does when it fails, and how it answered the probe. */
export interface InterceptorReport {
  event: string;
  on_failure: FailurePolicy;
  on_failure_from: FailurePolicySource;
  /** null: not probed (only `zot ext doctor` probes). */
  probe: InterceptorProbe["outcome"] | null;
  latency_ms: number | null;
}

function probePayload(event: string, host: { cwd: string; provider: string; model: string }): Record<string, unknown> {
  switch (event) {
    case "tool_call": return { tool_id: "zot-doctor-probe", tool_name: "zot_doctor_probe", tool_args: {} };
    case "turn_start": return { step: 1 };
    case "assistant_message": return { text: "(zot ext doctor probe)" };
    default: return { session_id: "zot-doctor-probe", agent_run_id: "zot-doctor-probe", ...host, system_prompt: "" };
  }
}

/** Probes each intercepted event of `ext` in turn (its answers are serial anyway). */
export async function probeInterceptors(ext: LoadedExtension, host: { cwd: string; provider: string; model: string },
  timeoutMs: number): Promise<InterceptorProbe[]> {
  const probes: InterceptorProbe[] = [];
  for (const event of ext.intercepts) {
    const conn = ext.conn;
    if (!ext.alive || !conn) break;
    const started = performance.now();
    const reply = await conn.request<EventInterceptResponseFrame>(
      { type: "event_intercept", id: conn.newId("probe"), event, ...probePayload(event, host) },
      "event_intercept_response", { timeoutMs, deadlineIncludesWrite: event === "before_agent_start" });
    const latency = Math.round(performance.now() - started);
    probes.push({ event, outcome: reply.ok ? "answered" : reply.reason === "timeout" ? "timed_out" : "failed", latency_ms: latency });
  }
  return probes;
}

export function interceptorReports(ext: LoadedExtension, probes: InterceptorProbe[] | undefined): InterceptorReport[] {
  return [...ext.intercepts].map((event) => {
    const probe = probes?.find((p) => p.event === event);
    return {
      event, on_failure: ext.permissions.failurePolicy(event), on_failure_from: ext.permissions.failurePolicySource(event),
      probe: probe?.outcome ?? null, latency_ms: probe?.latency_ms ?? null,
    };
  });
}
