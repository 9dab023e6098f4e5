// The one test for "a JSON object" (`{…}`), used on both sides of the wire and for values an
// extension author passes in. Arrays, null and class instances (Map, Date, …) are not JSON
// objects; a value from JSON.parse that is an object always is one.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
