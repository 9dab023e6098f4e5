// The one test for "a JSON object" (`{…}`), used on both sides of the wire and for values an
// extension author passes in. Arrays, null and class instances (Map, Date, …) are not JSON
// objects; a value from JSON.parse that is an object always is one.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keys in a stable order, so equal JSON values serialize the same. */
export function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonicalJson((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Whether two JSON values are equal, whatever the order of their keys. */
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(canonicalJson(a)) === JSON.stringify(canonicalJson(b));
