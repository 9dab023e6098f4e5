// The event vocabulary's schemas made loose for json/rpc clients: every object keeps the fields
// it does not describe (zot may add fields; clients ignore what they do not know).
import * as v from "valibot";

export type AnySchema = v.GenericSchema & Record<string, any>;

/**
 * The same schema with every object, however deeply nested, a `looseObject`. The static type
 * stays the vocabulary's (without the index signature a loose object adds).
 */
export function loosely<T extends v.GenericSchema>(schema: T): T {
  return withObjects(schema as unknown as AnySchema, (entries) => v.looseObject(entries)) as unknown as T;
}

/** The same schema with every object, however deeply nested, rebuilt by `object` from its (rebuilt) entries. */
export function withObjects(schema: AnySchema, object: (entries: Record<string, AnySchema>) => v.GenericSchema): AnySchema {
  const again = (inner: AnySchema) => withObjects(inner, object);
  // Leaves (strings, numbers with their pipes, literals, picklists, records of unknown) stay as they are.
  switch (schema.type) {
    case "object":
    case "loose_object":
    case "strict_object":
      return object(Object.fromEntries(Object.entries(schema.entries).map(([k, s]) => [k, again(s as AnySchema)]))) as AnySchema;
    case "optional":
      return v.optional(again(schema.wrapped)) as AnySchema;
    case "nullable":
      return v.nullable(again(schema.wrapped)) as AnySchema;
    case "array":
      return v.array(again(schema.item)) as AnySchema;
    case "union":
      return v.union(schema.options.map((option: AnySchema) => again(option))) as AnySchema;
    default:
      return schema;
  }
}
