// Checks json/rpc output against the published stream schema, strictly: the schema's loose
// objects (clients must tolerate new fields) are rebuilt as strict ones, so a field zot prints
// but the schema does not describe fails the test, and the schema cannot drift from the code.
import * as v from "valibot";
import { streamSchema } from "../../mod.ts";
import { withObjects, type AnySchema } from "../../lib/modes/stream-schema/loose.ts";

/** The same schema with every object strict (unknown keys are an error). */
export function strictly(schema: AnySchema): AnySchema {
  return withObjects(schema, (entries) => v.strictObject(entries));
}

const strictMap = (map: Record<string, v.GenericSchema>) =>
  Object.fromEntries(Object.entries(map).map(([k, s]) => [k, strictly(s as AnySchema)]));

const STRICT = {
  events: strictMap(streamSchema.LINE_SCHEMAS.events),
  response: strictly(streamSchema.LINE_SCHEMAS.response as AnySchema),
  responseData: strictMap(streamSchema.LINE_SCHEMAS.responseData),
};

/** Throws with the line and the problem unless `text` is one schema-valid line with `type` first. */
export function checkStreamLine(text: string): Record<string, any> {
  if (!/^\{"type":"[a-z_]+"/.test(text)) throw new Error(`stream line does not start with its type: ${text}`);
  const line = JSON.parse(text);
  const problem = streamSchema.validateStreamLine(line, STRICT);
  if (problem) throw new Error(`stream line does not match the schema (${problem}): ${text}`);
  return line;
}
