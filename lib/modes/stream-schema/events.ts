// Every event line json and rpc modes print (host.md "One event vocabulary" and "Compatibility
// with the Go zot's json and rpc streams"), by `type`: the event vocabulary's own schemas
// (lib/events), loose, with the Go zot's fields that lib/modes/event-stream.ts adds.
import * as v from "valibot";
import { args, EVENT_SCHEMAS, StreamBlockSchema, time, ToolContentSchema, type EventType } from "../../events/index.ts";
import { loosely } from "./loose.ts";

/** The fields the Go zot's format adds to an event, beside zot's own. */
const GO_FIELDS = {
  tool_call: { id: v.string(), name: v.string(), args },
  tool_progress: { id: v.string() },
  tool_result: { id: v.string(), is_error: v.boolean(), content: v.array(ToolContentSchema) },
  assistant_message: { content: v.array(StreamBlockSchema), time },
} satisfies Partial<Record<EventType, v.ObjectEntries>>;

type GoFields = typeof GO_FIELDS;
type WithGoFields<S, G> = S extends v.ObjectSchema<infer E extends v.ObjectEntries, undefined>
  ? G extends v.ObjectEntries ? v.ObjectSchema<E & G, undefined> : S
  : never;
type StreamEventSchemas = { [K in EventType]: WithGoFields<(typeof EVENT_SCHEMAS)[K], K extends keyof GoFields ? GoFields[K] : undefined> };

export const STREAM_EVENT_SCHEMAS = Object.fromEntries(
  Object.entries(EVENT_SCHEMAS).map(([type, schema]) => {
    const goFields: v.ObjectEntries = (GO_FIELDS as Partial<Record<string, v.ObjectEntries>>)[type] ?? {};
    return [type, loosely(v.object({ ...schema.entries, ...goFields }))];
  }),
) as StreamEventSchemas;

export type StreamEventType = EventType;
export type StreamEvent = { [K in StreamEventType]: v.InferOutput<StreamEventSchemas[K]> }[StreamEventType];
