// Checks of the lifecycle surface: each intercepted event gets a valid event_intercept_response
// to a representative request within the deadline, and each observed event is delivered once
// without the extension dying.
import {
  isJsonObject, SYSTEM_PROMPT_MAX_BYTES, type EventInterceptResponseFrame, type InterceptableEventName,
} from "../../../protocol/index.ts";
import { exchange, settleAlive, whileRunning } from "./exchange.ts";
import { eventPayload, interceptPayload } from "./payloads.ts";
import type { Session } from "./session.ts";

/** Problems (fail) and warnings with a reply the schema accepted; the host checks these fields itself. */
function judgeIntercept(event: InterceptableEventName, frame: EventInterceptResponseFrame): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
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
  const changes = (["modified_args", "replace_text", "system_prompt"] as const).filter((k) => frame[k] !== undefined);
  return changes.length ? `allow with ${changes.join(", ")}` : "allow";
}

export async function checkIntercepts(s: Session): Promise<void> {
  for (const event of s.intercepts) {
    const name = `intercept ${event}`;
    await whileRunning(s, name, async () => {
      const request = { type: "event_intercept", id: s.nextId("intercept"), ...interceptPayload(event, s.info) };
      const reply = await exchange(s, request, "event_intercept_response", s.timeouts.intercept);
      if (!reply.ok) return void s.list.fail(name, `${reply.detail} (zot treats that as allow)`);
      const frame = reply.frame as EventInterceptResponseFrame;
      const { problems, warnings } = judgeIntercept(event, frame);
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
