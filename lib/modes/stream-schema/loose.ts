// The event vocabulary's schemas made loose for json/rpc clients: every object keeps the fields
// it does not describe (zot may add fields; clients ignore what they do not know).
import * as v from "valibot";

type AnySchema = v.GenericSchema & Record<string, any>;

/**
 * The same schema with every object, however deeply nested, a `looseObject`. The static type
 * stays the vocabulary's (without the index signature a loose object adds).
 */
export function loosely<T extends v.GenericSchema>(schema: T): T {
  return loose(schema as unknown as AnySchema) as unknown as T;
}

function loose(schema: AnySchema): AnySchema {
  // Leaves (strings, numbers with their pipes, literals, picklists, records of unknown) stay as they are.
  switch (schema.type) {
    case "object":
    case "loose_object":
      return v.looseObject(Object.fromEntries(Object.entries(schema.entries).map(([k, s]) => [k, loose(s as AnySchema)]))) as AnySchema;
    case "optional":
      return v.optional(loose(schema.wrapped)) as AnySchema;
    case "nullable":
      return v.nullable(loose(schema.wrapped)) as AnySchema;
    case "array":
      return v.array(loose(schema.item)) as AnySchema;
    case "union":
      return v.union(schema.options.map((option: AnySchema) => loose(option))) as AnySchema;
    default:
      return schema;
  }
}
