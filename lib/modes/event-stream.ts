// What json and rpc modes write for the event stream: each bus event as one line, and a failed
// `done` preceded by its `error` line, so clients that watch for `error` (as those written for
// the Go zot do) see the failure.
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
    event: (event) => (event.type === "done" ? done(event) : sink.write(event)),
    done,
  };
}

/** The `done` of a command or run that failed with `message`. */
export function failedDone(message: string): DoneEvent {
  return { type: "done", stop: "error", error: message };
}
