// Node built-ins that cost a run's start when imported (Bun loads node:crypto and node:stream
// with the whole stream machinery, several milliseconds each, node:child_process 2.5 ms:
// bench/startup.ts), required where they are used instead, so only the runs that hash, build a
// stream or start a process pay for them.
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

/** node:child_process, for the code that starts processes (tools, subagents, the sandbox's probe). */
export function childProcess(): typeof import("node:child_process") {
  return require("node:child_process") as typeof import("node:child_process");
}

/** node:url's fileURLToPath (node:url costs half a millisecond to load). */
export function fileURLToPath(url: string | URL): string {
  return (require("node:url") as typeof import("node:url")).fileURLToPath(url);
}
