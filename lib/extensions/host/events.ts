// Lifecycle notifications: every lifecycle event on the bus becomes one `event` frame for each
// live extension subscribed to it, queued on that extension's ordered outbound queue (enqueue
// never waits for the subprocess). `tool_result` observations are bounded (256 KiB, 128 blocks)
// and carry only content, is_error, a file change's diff and truncated: other details never
// leave the host.
import type { StampedLifecycleEvent } from "../../events/index.ts";
import { observeResult } from "../../agent/loop/observation.ts";
import type { LoadedExtension } from "../runtime/extension.ts";

/** The wire form of a lifecycle event: `{type:"event", event:<name>, …payload}`. */
export function eventFrame(event: StampedLifecycleEvent): { type: "event" } & Record<string, unknown> {
  const { type, ...payload } = event;
  if (event.type === "tool_result") {
    const bounded = observeResult(event.result.content, event.result.diff);
    const result: Record<string, unknown> = { content: bounded.content, is_error: event.result.is_error };
    if (bounded.diff !== undefined) result.diff = bounded.diff;
    if (bounded.truncated || event.result.truncated) result.truncated = true;
    return { type: "event", event: type, ...payload, result };
  }
  return { type: "event", event: type, ...payload };
}

/** Queues `event` for each subscribed, live extension (in load order). */
export function deliverEvent(event: StampedLifecycleEvent, extensions: Iterable<LoadedExtension>): void {
  let frame: ReturnType<typeof eventFrame> | undefined;
  for (const ext of extensions) {
    if (!ext.alive || !ext.events.has(event.type)) continue;
    frame ??= eventFrame(event);
    ext.driver.deliver(frame);
  }
}
