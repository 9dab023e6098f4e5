// One compact JSON object per line with `type` first: the only thing json and rpc modes ever
// write to stdout.
import type { HostEvent } from "../events/index.ts";
import { encodeFrame } from "../protocol/codec.ts";
import { PROTOCOL_VERSION } from "../protocol/limits.ts";
import { ZOT_VERSION } from "../version.ts";

export interface LineSink {
  write<T extends { type: string }>(line: T): void;
}

/** The first line of json and rpc output, built from the runtime's camelCase identity. */
export function sessionLine(
  info: { sessionId: string; cwd: string; provider: string; model: string },
): Extract<HostEvent, { type: "session" }> {
  return {
    type: "session", session_id: info.sessionId, cwd: info.cwd, provider: info.provider, model: info.model,
    zot_version: ZOT_VERSION, protocol_version: PROTOCOL_VERSION,
  };
}

export function ndjsonSink(out: { write(text: string): unknown }): LineSink {
  return { write: (line) => void out.write(encodeFrame(line as { type: string } & Record<string, unknown>)) };
}
