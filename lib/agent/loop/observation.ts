// The bounded copy of a tool result that observers (extensions, json/rpc output) receive. The
// model and the session keep the full content; only this observation is shortened.
import { Buffer } from "node:buffer";
import { isJsonObject } from "../../protocol/json-object.ts";
import { OBSERVATION_MAX_BLOCKS, OBSERVATION_MAX_BYTES } from "../../protocol/limits.ts";
import type { ToolContent } from "../../tools/types.ts";

export interface Observation {
  content: ToolContent[];
  /** A file-changing tool's unified diff, in what budget the content left. */
  diff?: string;
  /** True when anything was shortened or omitted. */
  truncated: boolean;
}

export interface ObservationLimits {
  maxBytes: number;
  maxBlocks: number;
}

const DEFAULT_LIMITS: ObservationLimits = { maxBytes: OBSERVATION_MAX_BYTES, maxBlocks: OBSERVATION_MAX_BLOCKS };

/**
 * Fits `content` into the spec's observation budget: text, base64 data and MIME type bytes
 * combined at most `maxBytes`, at most `maxBlocks` blocks. Text is cut at a UTF-8 boundary;
 * an image that does not fit and any unsupported block are omitted.
 */
export function observeContent(content: readonly unknown[], limits: ObservationLimits = DEFAULT_LIMITS): Observation {
  return observeWithin(content, limits).observation;
}

function observeWithin(content: readonly unknown[], limits: ObservationLimits): { observation: Observation; remaining: number } {
  const out: ToolContent[] = [];
  let budget = limits.maxBytes;
  let truncated = false;
  for (const block of content) {
    if (out.length >= limits.maxBlocks) {
      truncated = true;
      break;
    }
    if (isText(block)) {
      const bytes = Buffer.byteLength(block.text, "utf8");
      if (bytes <= budget) {
        out.push({ type: "text", text: block.text });
        budget -= bytes;
      } else {
        truncated = true;
        if (budget > 0) out.push({ type: "text", text: cutUtf8(block.text, budget) });
        budget = 0;
      }
    } else if (isImage(block)) {
      const bytes = Buffer.byteLength(block.data, "utf8") + Buffer.byteLength(block.mime_type, "utf8");
      if (bytes <= budget) {
        out.push({ type: "image", mime_type: block.mime_type, data: block.data });
        budget -= bytes;
      } else {
        truncated = true;
      }
    } else {
      truncated = true;
    }
  }
  return { observation: { content: out, truncated }, remaining: budget };
}

/**
 * The observation of a result: its content first, then a file change's diff in the budget
 * left (cut at a UTF-8 boundary, or left out when nothing is left).
 */
export function observeResult(content: readonly unknown[], diff: unknown, limits: ObservationLimits = DEFAULT_LIMITS): Observation {
  const { observation: observed, remaining } = observeWithin(content, limits);
  if (typeof diff !== "string" || diff === "") return observed;
  if (Buffer.byteLength(diff, "utf8") <= remaining) return { ...observed, diff };
  const cut = cutUtf8(diff, remaining);
  return { ...observed, ...(cut !== "" ? { diff: cut } : {}), truncated: true };
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

function isText(block: unknown): block is { type: "text"; text: string } {
  return isJsonObject(block) && block.type === "text" && typeof block.text === "string";
}

function isImage(block: unknown): block is { type: "image"; mime_type: string; data: string } {
  return isJsonObject(block) && block.type === "image" && typeof block.data === "string" && typeof block.mime_type === "string";
}
