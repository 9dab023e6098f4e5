// The one event vocabulary (host.md "One event vocabulary", extensions.md "Lifecycle payloads"):
// each event is written once, as a schema, its type inferred from it and its name read off it;
// the json/rpc stream schema extends those schemas with the Go zot's fields and redefines none.
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  EVENT_SCHEMAS, HOST_EVENT_SCHEMAS, INTERCEPTABLE_EVENTS, LIFECYCLE_EVENTS, LIFECYCLE_PAYLOAD_SCHEMAS, NOTIFY_EVENT_LEVELS, STAMPED_LIFECYCLE_SCHEMAS,
  type EventType, type HostEvent, type LifecycleEventName, type LifecyclePayload, type StampedLifecycleEvent, type ZotEvent,
} from "../../lib/events/index.ts";
import * as protocol from "../../lib/protocol/index.ts";
import { STREAM_EVENT_SCHEMAS } from "../../lib/modes/stream-schema/events.ts";
import { withGoFields, withGoMessage } from "../../lib/modes/event-stream.ts";
import { eventFrame } from "../../lib/extensions/host/events.ts";

type AnySchema = v.GenericSchema & Record<string, any>;
const entriesOf = (schema: unknown) => (schema as { entries: Record<string, AnySchema> }).entries;
const literalType = (schema: unknown) => (entriesOf(schema).type as { literal?: unknown }).literal;

/** The extension protocol's lifecycle events, in the order extensions.md lists them for subscribers. */
const PROTOCOL_LIFECYCLE_EVENTS = [
  "session_start", "session_end", "user_prompt_submit", "turn_start", "turn_end", "tool_call", "tool_result",
  "tool_confirmation_requested", "permission_decision", "assistant_message", "pre_compact", "post_compact",
  "subagent_start", "subagent_stop",
];

describe("Each event is written once", () => {
  it("the lifecycle names are read off the lifecycle schemas: one schema per name, no name without one", () => {
    expect([...LIFECYCLE_EVENTS]).toEqual(PROTOCOL_LIFECYCLE_EVENTS);
    expect(Object.keys(LIFECYCLE_PAYLOAD_SCHEMAS)).toEqual(PROTOCOL_LIFECYCLE_EVENTS);
    expect(protocol.LIFECYCLE_EVENTS).toBe(LIFECYCLE_EVENTS);
  });

  it("every schema's type literal is the name it is filed under", () => {
    for (const [name, schema] of Object.entries(EVENT_SCHEMAS)) expect(literalType(schema), name).toBe(name);
    for (const [name, schema] of Object.entries(LIFECYCLE_PAYLOAD_SCHEMAS)) expect(literalType(schema), name).toBe(name);
  });

  it("a name is a lifecycle event or a host event, never both, and every name has exactly one schema", () => {
    const lifecycle = Object.keys(STAMPED_LIFECYCLE_SCHEMAS);
    const host = Object.keys(HOST_EVENT_SCHEMAS);
    expect(lifecycle.filter((name) => host.includes(name))).toEqual([]);
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual([...lifecycle, ...host].sort());
    expect(new Set(Object.keys(EVENT_SCHEMAS)).size).toBe(lifecycle.length + host.length);
  });

  it("a stamped lifecycle schema is its payload's fields plus the stamp, the same field schemas", () => {
    for (const name of LIFECYCLE_EVENTS) {
      const payload = entriesOf(LIFECYCLE_PAYLOAD_SCHEMAS[name]);
      const stamped = entriesOf(STAMPED_LIFECYCLE_SCHEMAS[name]);
      expect(Object.keys(stamped), name).toEqual([...Object.keys(payload), "session_id", "cwd", "sequence"]);
      for (const field of Object.keys(payload)) expect(stamped[field], `${name}.${field}`).toBe(payload[field]);
    }
  });

  it("ext_notify's levels are the notify frame's levels", () => {
    expect([...NOTIFY_EVENT_LEVELS]).toEqual([...protocol.NOTIFY_LEVELS]);
  });

  it("interception points are lifecycle events, except before_agent_start, before_agent_end and tool_confirmation, which have no event", () => {
    expect(INTERCEPTABLE_EVENTS.filter((name) => !(LIFECYCLE_EVENTS as readonly string[]).includes(name))).toEqual(["before_agent_start", "before_agent_end", "tool_confirmation"]);
  });

  it("the inferred types match the names", () => {
    expectTypeOf<LifecyclePayload["type"]>().toEqualTypeOf<LifecycleEventName>();
    expectTypeOf<StampedLifecycleEvent["type"]>().toEqualTypeOf<LifecycleEventName>();
    expectTypeOf<HostEvent["type"]>().toEqualTypeOf<keyof typeof HOST_EVENT_SCHEMAS>();
    expectTypeOf<ZotEvent["type"]>().toEqualTypeOf<EventType>();
    expectTypeOf<(typeof LIFECYCLE_EVENTS)[number]>().toEqualTypeOf<LifecycleEventName>();
    // An event's type is its schema's output, both ways round (the stamp is an intersection).
    type Schema<K extends EventType> = v.InferOutput<(typeof EVENT_SCHEMAS)[K]>;
    expectTypeOf<Extract<ZotEvent, { type: "assistant_message" }>>().toExtend<Schema<"assistant_message">>();
    expectTypeOf<Schema<"assistant_message">>().toExtend<Extract<ZotEvent, { type: "assistant_message" }>>();
    expectTypeOf<Extract<ZotEvent, { type: "done" }>>().toEqualTypeOf<Schema<"done">>();
  });
});

describe("The json/rpc stream schema extends the vocabulary", () => {
  /** The fields the Go zot's format adds, by event (host.md, "Compatibility with the Go zot's json and rpc streams"). */
  const GO_FIELDS: Record<string, string[]> = {
    tool_call: ["id", "name", "args"],
    tool_progress: ["id"],
    tool_result: ["id", "is_error", "content"],
    assistant_message: ["content", "time"],
  };

  it("has a line schema for every event and no other", () => {
    expect(Object.keys(STREAM_EVENT_SCHEMAS).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });

  it("keeps every field of the event and adds only the Go zot's fields, redefining none", () => {
    for (const [name, schema] of Object.entries(EVENT_SCHEMAS)) {
      const base = entriesOf(schema);
      const line = entriesOf(STREAM_EVENT_SCHEMAS[name as EventType]);
      expect(Object.keys(line), name).toEqual([...Object.keys(base), ...(GO_FIELDS[name] ?? [])]);
      // Leaf fields are the very same schema objects; objects are rebuilt loose, with the same keys.
      for (const [field, fieldSchema] of Object.entries(base)) {
        if (fieldSchema.type === "object" || fieldSchema.type === "optional" || fieldSchema.type === "array" || fieldSchema.type === "union") {
          expect(line[field]!.type, `${name}.${field}`).toBe(fieldSchema.type === "object" ? "loose_object" : fieldSchema.type);
        } else {
          expect(line[field], `${name}.${field}`).toBe(fieldSchema);
        }
      }
    }
  });

  it("the lines json/rpc modes write for the vocabulary's events pass the stream schema", () => {
    const stamp = { session_id: "s1", cwd: "/w", sequence: 1 };
    const call = { type: "tool_call", tool_id: "c1", tool_name: "bash", tool_args: { command: "ls" }, ...stamp } as const;
    const lines = [
      withGoFields(call),
      withGoMessage({ type: "assistant_message", text: "hi", ...stamp }, [call], "2026-01-01T00:00:00.000Z"),
      withGoFields({ type: "tool_progress", tool_id: "c1", text: "…" }),
    ];
    for (const line of lines) {
      const parsed = v.safeParse(STREAM_EVENT_SCHEMAS[line.type as EventType], line);
      expect(parsed.success, line.type).toBe(true);
    }
    expect(lines[1]).toEqual({
      type: "assistant_message", text: "hi",
      content: [{ type: "text", text: "hi" }, { type: "tool_call", id: "c1", name: "bash", args: { command: "ls" } }],
      time: "2026-01-01T00:00:00.000Z", ...stamp,
    });
    expect(Object.keys(lines[1]!)).toEqual(["type", "text", "content", "time", "session_id", "cwd", "sequence"]);
  });
});

describe("Extensions get the vocabulary's payload as it is", () => {
  it("an event frame is the stamped payload under `event`, nothing added or taken away", () => {
    const stamp = { session_id: "s1", cwd: "/w", sequence: 7 };
    expect(eventFrame({ type: "assistant_message", text: "visible", ...stamp }))
      .toEqual({ type: "event", event: "assistant_message", text: "visible", ...stamp });
  });
});
