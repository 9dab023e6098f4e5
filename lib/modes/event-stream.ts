// What json and rpc modes write for the event stream: each bus event as one line, a superset of
// the Go zot's format, and a failed `done` preceded by its `error` line, so clients that watch
// for `error` see the failure. This is the one place the Go zot's fields are added (host.md,
// "Compatibility with the Go zot's json and rpc streams"): its names beside zot's own where they
// do not clash, and assistant_message's `content` and `time`. The bus carries only what the
// event vocabulary (lib/events) defines.
import type { HostEvent, StampedLifecycleEvent, StreamBlock, ZotEvent } from "../events/index.ts";
import type { Frontend } from "../app/frontend.ts";
import { sessionLine, type LineSink } from "./ndjson.ts";

export type DoneEvent = Extract<HostEvent, { type: "done" }>;
type AssistantMessageEvent = Extract<StampedLifecycleEvent, { type: "assistant_message" }>;
type ToolCallEvent = Extract<StampedLifecycleEvent, { type: "tool_call" }>;

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

export interface EventStreamOptions {
  /** The clock of assistant_message's `time` (default: now). */
  now?: () => number;
}

export function eventStream(sink: LineSink, options: EventStreamOptions = {}): EventStream {
  const now = options.now ?? Date.now;
  // The Go zot's assistant_message lists the response's tool calls, which the loop announces
  // right after it (before turn_end, with no await between): the line waits for them.
  let held: { message: AssistantMessageEvent; calls: ToolCallEvent[] } | undefined;
  const release = () => {
    if (!held) return;
    const { message, calls } = held;
    held = undefined;
    sink.write(withGoMessage(message, calls, new Date(now()).toISOString()));
    for (const call of calls) sink.write(withGoFields(call));
  };
  const done = (event: DoneEvent) => {
    release();
    if (isFailure(event)) sink.write({ type: "error", message: event.error ?? "the run failed" });
    sink.write(event);
  };
  return {
    event(event) {
      if (event.type === "tool_call" && held) {
        held.calls.push(event);
        return;
      }
      release();
      if (event.type === "assistant_message") held = { message: event, calls: [] };
      else if (event.type === "done") done(event);
      else sink.write(withGoFields(event));
    },
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

/**
 * The Go zot's assistant_message: the visible text and the calls as `content` blocks (text
 * first, none when there was no visible text), and `time`, placed after `text` and before the stamp.
 */
export function withGoMessage(message: AssistantMessageEvent, calls: readonly ToolCallEvent[], time: string): { type: string } & Record<string, unknown> {
  const { type, text, ...stamp } = message;
  const content: StreamBlock[] = [
    ...(text !== "" ? [{ type: "text" as const, text }] : []),
    // A call whose arguments were not a JSON object has none to list (the Go zot's `{}`).
    ...calls.map((call) => ({ type: "tool_call" as const, id: call.tool_id, name: call.tool_name, args: call.tool_args ?? {} })),
  ];
  return { type, text, content, time, ...stamp };
}

/** The `done` of a command or run that failed with `message`. */
export function failedDone(message: string): DoneEvent {
  return { type: "done", stop: "error", error: message };
}

/** The frontend of a mode that only streams (rpc, a subagent child): the session line, then every event; warnings to `warnLine`. */
export function streamingFrontend(sink: LineSink, stream: EventStream, warnLine: (text: string) => void): Frontend {
  return {
    warn: (message) => warnLine(`zot: warning: ${message}`),
    showEvents(bus, info) {
      sink.write(sessionLine(info));
      bus.subscribe((event) => stream.event(event));
    },
  };
}
