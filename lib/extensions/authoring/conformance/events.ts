// Checks of the lifecycle surface: each intercepted event gets a valid event_intercept_response
// to a representative request within the deadline, and each observed event is delivered once
// without the extension dying.
import {
  INTERCEPT_V2, isJsonObject, SYSTEM_PROMPT_MAX_BYTES, type EventInterceptResponseFrame, type InterceptableEventName,
} from "../../../protocol/index.ts";
import { exchange, settleAlive, whileRunning } from "./exchange.ts";
import { eventPayload, interceptPayload } from "./payloads.ts";
import type { Session } from "./session.ts";

/** The intercept_v2 answer fields, and the points each one means something at. */
const V2_FIELDS = {
  decision: ["tool_call", "tool_confirmation"],
  additional_context: ["tool_call", "tool_result", "user_prompt_submit"],
  replace_content: ["tool_result"],
  continue_with: ["before_agent_end"],
} as const satisfies Record<string, readonly InterceptableEventName[]>;

/** Problems and warnings about the intercept_v2 fields of a reply (`v2`: the extension said intercept_v2 in hello). */
function judgeV2(event: InterceptableEventName, frame: EventInterceptResponseFrame, v2: boolean, problems: string[], warnings: string[]): void {
  for (const [field, points] of Object.entries(V2_FIELDS) as Array<[keyof typeof V2_FIELDS, readonly string[]]>) {
    if (frame[field] === undefined) continue;
    if (!v2) warnings.push(`${field} is ignored: say "${INTERCEPT_V2}" in hello's capabilities to use it`);
    else if (!points.includes(event)) warnings.push(`${field} is ignored for ${event}`);
  }
  if (event === "tool_confirmation" && frame.decision === "ask") warnings.push("decision ask is ignored for tool_confirmation (the user is asked anyway)");
  if (frame.replace_content !== undefined && (!Array.isArray(frame.replace_content) || !frame.replace_content.every(isJsonObject))) {
    problems.push("replace_content must be an array of content blocks (zot keeps the tool's output)");
  }
}

/** Problems (fail) and warnings with a reply the schema accepted; the host checks these fields itself. */
function judgeIntercept(event: InterceptableEventName, frame: EventInterceptResponseFrame, v2: boolean): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  judgeV2(event, frame, v2, problems, warnings);
  if (frame.modified_args !== undefined) {
    if (!isJsonObject(frame.modified_args)) problems.push("modified_args must be a JSON object (zot keeps the original args)");
    else if (event !== "tool_call") warnings.push(`modified_args is ignored for ${event}`);
  }
  if (frame.replace_text !== undefined && event !== "assistant_message") warnings.push(`replace_text is ignored for ${event}`);
  if (frame.system_prompt !== undefined) {
    if (typeof frame.system_prompt !== "string") problems.push("system_prompt must be a string (zot keeps the current prompt)");
    else if (Buffer.byteLength(JSON.stringify(frame.system_prompt)) > SYSTEM_PROMPT_MAX_BYTES) {
      problems.push(`system_prompt exceeds ${SYSTEM_PROMPT_MAX_BYTES} bytes (zot keeps the current prompt)`);
    } else if (event !== "before_agent_start") warnings.push(`system_prompt is ignored for ${event}`);
  }
  if (frame.block && event === "before_agent_start") warnings.push("block does not block before_agent_start");
  return { problems, warnings };
}

function decision(frame: EventInterceptResponseFrame): string {
  if (frame.block) return `block${frame.reason ? ` (${frame.reason})` : ""}`;
  if (frame.continue_with !== undefined) return `continue with a prompt`;
  const changes = (["modified_args", "replace_text", "system_prompt", "replace_content", "additional_context"] as const).filter((k) => frame[k] !== undefined);
  const verdict = frame.decision ?? "allow";
  return changes.length ? `${verdict} with ${changes.join(", ")}` : verdict;
}

export async function checkIntercepts(s: Session): Promise<void> {
  for (const event of s.intercepts) {
    const name = `intercept ${event}`;
    await whileRunning(s, name, async () => {
      const request = { type: "event_intercept", id: s.nextId("intercept"), ...interceptPayload(event, s.info) };
      const reply = await exchange(s, request, "event_intercept_response", s.timeouts.intercept);
      if (!reply.ok) return void s.list.fail(name, `${reply.detail} (zot treats that as allow)`);
      const frame = reply.frame as EventInterceptResponseFrame;
      const { problems, warnings } = judgeIntercept(event, frame, s.capabilities.includes(INTERCEPT_V2));
      const detail = `${decision(frame)} in ${reply.ms} ms`;
      if (problems.length) s.list.fail(name, `${detail}; ${problems.join("; ")}`);
      else if (warnings.length) s.list.warn(name, `${detail}; ${warnings.join("; ")}`);
      else s.list.pass(name, detail);
    });
  }
}

/** Sends every subscribed event once, as the host would (session_id, cwd, sequence), and watches it survive. */
export async function checkEvents(s: Session): Promise<void> {
  const name = "events";
  if (s.events.length === 0) return void s.list.skip(name, "no event subscriptions");
  await whileRunning(s, name, async () => {
    let sequence = 0;
    for (const event of s.events) {
      s.driver.send({ type: "event", event, session_id: s.info.sessionId, cwd: s.info.cwd, sequence: ++sequence,
        ...eventPayload(event) });
    }
    const gone = await settleAlive(s);
    const sent = `${s.events.length} event${s.events.length === 1 ? "" : "s"} (${s.events.join(", ")})`;
    if (gone) s.list.fail(name, `${gone} after receiving ${sent}`);
    else s.list.pass(name, `still running after ${sent}`);
  });
}
