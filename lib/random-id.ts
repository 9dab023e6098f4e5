// Random ids from the Web Crypto every runtime has as a global: importing node:crypto costs a
// one-shot run's start more than the ids are worth (Bun loads the stream modules with it).

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random RFC 4122 version 4 UUID. */
export function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}
