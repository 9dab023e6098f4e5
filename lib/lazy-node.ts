// Node built-ins that cost a run's start when imported (Bun loads node:crypto and node:stream
// with the whole stream machinery, several milliseconds each: bench/startup.ts), required where
// they are used instead, so only the runs that hash or build a stream pay for them.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A sha256 hash to feed. */
export function sha256(): import("node:crypto").Hash {
  return (require("node:crypto") as typeof import("node:crypto")).createHash("sha256");
}

/** The sha256 of `data`, in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return sha256().update(data).digest("hex");
}

export function nodeStream(): typeof import("node:stream") {
  return require("node:stream") as typeof import("node:stream");
}
