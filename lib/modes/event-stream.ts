// What json and rpc modes write for the event stream: each bus event as one line, a superset of
// the Go zot's format (its field names added beside zot's own where they do not clash), and a
// failed `done` preceded by its `error` line, so clients that watch for `error` see the failure.
import type { HostEvent, ZotEvent } from "../agent/events.ts";
import type { LineSink } from "./ndjson.ts";

export type DoneEvent = Extract<HostEvent, { type: "done" }>;

/** A `done` that reports a failure: a failed run, a blocked turn, a failed command. */
export function isFailure(done: DoneEvent): boolean {
  return done.stop === "error" || done.stop === "blocked";
}

export interface EventStream {
  /** Writes one bus event (a `done` through `done`). */
  event(event: ZotEvent): void;
  /** Writes `done`, preceded by `error {message}` when it reports a failure. */
  done(done: DoneEvent): void;
}

export function eventStream(sink: LineSink): EventStream {
  const done = (event: DoneEvent) => {
    if (isFailure(event)) sink.write({ type: "error", message: event.error ?? "the run failed" });
    sink.write(event);
  };
  return {
    event: (event) => (event.type === "done" ? done(event) : sink.write(withGoFields(event))),
    done,
  };
}

/** Adds the Go zot's names for what zot's lifecycle fields already say; `type` stays first. */
export function withGoFields(event: ZotEvent): { type: string } & Record<string, unknown> {
  switch (event.type) {
    case "tool_call":
      return { ...event, id: event.tool_id, name: event.tool_name, args: event.tool_args };
    case "tool_progress":
      return { ...event, id: event.tool_id };
    case "tool_result":
      return { ...event, id: event.tool_id, is_error: event.result.is_error, content: event.result.content };
    default:
      return event as { type: string } & Record<string, unknown>;
  }
}

/** The `done` of a command or run that failed with `message`. */
export function failedDone(message: string): DoneEvent {
  return { type: "done", stop: "error", error: message };
}
