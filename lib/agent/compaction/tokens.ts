// Token estimates as the spec defines them for compaction: serialized text bytes divided by
// four. Image bytes are not counted; this is a budget heuristic, not provider usage.
import { Buffer } from "node:buffer";
import type { Message } from "../../providers/types.ts";

/** Text bytes of one message: text, reasoning, tool-call arguments and tool-result text. */
export function messageTextBytes(message: Message): number {
  let bytes = 0;
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        bytes += Buffer.byteLength(block.text, "utf8");
        break;
      case "thinking":
        bytes += Buffer.byteLength(block.thinking, "utf8");
        break;
      case "tool_call":
        bytes += Buffer.byteLength(block.name, "utf8") + Buffer.byteLength(block.args_raw ?? JSON.stringify(block.args), "utf8");
        break;
      default:
        break; // images: not counted
    }
  }
  return bytes;
}

export function estimateTokens(messages: readonly Message[], extraText = ""): number {
  let bytes = Buffer.byteLength(extraText, "utf8");
  for (const message of messages) bytes += messageTextBytes(message);
  return Math.ceil(bytes / 4);
}
