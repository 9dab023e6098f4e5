// Field schemas shared by the frame schemas of both directions. Each message names its field,
// so a rejected frame says which field was wrong.
import * as v from "valibot";
import { isJsonObject } from "./json-object.ts";

export const str = (field: string) => v.string(`${field} must be a string`);
export const nonEmpty = (field: string) => v.pipe(str(field), v.minLength(1, `${field} must not be empty`));
export const strings = (field: string) => v.array(str(field), `${field} must be an array of strings`);
export const bool = (field: string) => v.boolean(`${field} must be true or false`);

/** A JSON object (`{…}`): arrays and null are refused, which `v.record` alone would let through. */
export const jsonObject = (field: string) =>
  v.pipe(
    v.custom<Record<string, unknown>>(isJsonObject, `${field} must be a JSON object`),
    v.record(v.string(), v.unknown(), `${field} must be a JSON object`),
  );
