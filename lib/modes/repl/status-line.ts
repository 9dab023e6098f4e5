// The idle status line under the transcript: the model, how much of its context the conversation
// fills, the session's cost, and how the session's extensions are doing. Made when something it
// shows may have changed (start, a run's end, a command), not at every keystroke.
import type { Runtime } from "../../app/runtime-surface.ts";
import { displayWidth } from "./text.ts";
import { formatTokens } from "./usage-line.ts";

/** The status line's parts, in order of importance; the frame wraps them at their separators. */
export function idleStatus(rt: Runtime): string[] {
  const state = rt.session.state;
  const parts = [`${state.provider}/${state.model}`];
  if (state.context_window > 0) {
    const used = state.token_estimate;
    parts.push(`context ${Math.min(100, Math.round((used / state.context_window) * 100))}% (${formatTokens(used)}/${formatTokens(state.context_window)})`);
  }
  if (state.usage.cost_usd > 0) parts.push(`$${state.usage.cost_usd.toFixed(state.usage.cost_usd >= 1 ? 2 : 4)}`);
  const reports = rt.extensionReports();
  if (reports.length > 0) {
    const count = (status: string) => reports.filter((r) => r.status === status).length;
    const running = reports.filter((r) => r.status === "ok" && r.running).length;
    const states = [`${running} running`, ...(["error", "needs_approval", "disabled"] as const)
      .map((status) => [status, count(status)] as const).filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status === "error" ? "failed" : status === "needs_approval" ? "awaiting trust" : "disabled"}`)];
    parts.push(`extensions: ${states.join(", ")}`);
  }
  return parts;
}

/** The status line while subagents run. */
export function agentsStatus(running: number): string[] {
  return running > 0 ? [`${running} agent${running === 1 ? "" : "s"} running (/agents)`] : [];
}

/** `parts` joined with ` · `, on as many rows of `width` as they need (a part longer than a row is cut). */
export function statusRows(parts: readonly string[], width: number, cut: (text: string, width: number) => string): string[] {
  const rows: string[] = [];
  let row = "";
  for (const part of parts) {
    const joined = row === "" ? part : `${row} · ${part}`;
    if (row !== "" && displayWidth(joined) > width) {
      rows.push(row);
      row = part;
    } else row = joined;
  }
  if (row !== "") rows.push(row);
  return rows.map((r) => cut(r, width));
}
