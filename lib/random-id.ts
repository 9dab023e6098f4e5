// Random ids from the Web Crypto every runtime has as a global: importing node:crypto costs a
// one-shot run's start more than the ids are worth (Bun loads the stream modules with it). Tool
// calls take an id each, so the bytes come from a pool refilled 4 KiB at a time rather than one
// crypto call per id.

const POOL_BYTES = 4096;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
let pool = new Uint8Array(0);
let used = 0;

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (b) => HEX[b]).join("");
  if (used + bytes > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    used = 0;
  }
  let text = "";
  for (let i = used; i < used + bytes; i++) text += HEX[pool[i]!];
  used += bytes;
  return text;
}

/** A random RFC 4122 version 4 UUID. */
export function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}
