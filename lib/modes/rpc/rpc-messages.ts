// The transcript as rpc `get_messages` gives it: zot's own message fields, plus what clients of
// the Go zot read: `time` (RFC 3339) on every message, image blocks with their size in `bytes`
// (the base64 only when asked for), and each tool result also as a
// `{type:"tool_result", call_id, is_error, content}` block at the end of its content.
import { Buffer } from "node:buffer";
import { rfc3339 } from "../../agent/stream-blocks.ts";
import type { ImageBlock, Message, TextBlock } from "../../providers/types.ts";

export interface MessageView {
  /** Keep each image's base64 `data` (off by default: transcripts get large). */
  includeImages: boolean;
}

export function messagesForClient(messages: readonly Message[], view: MessageView): Array<Record<string, unknown>> {
  return messages.map((message) => {
    const time = message.timestamp !== undefined ? { time: rfc3339(message.timestamp) } : {};
    if (message.role === "assistant") return { ...message, ...time };
    const content = message.content.map((block) => contentBlock(block, view));
    if (message.role === "user") return { ...message, content, ...time };
    const result = { type: "tool_result", call_id: message.tool_id, is_error: message.is_error, content };
    return { ...message, content: [...content, result], ...time };
  });
}

function contentBlock(block: TextBlock | ImageBlock, view: MessageView): Record<string, unknown> {
  if (block.type === "text") return { ...block };
  const { data, ...rest } = block;
  return { ...rest, bytes: Buffer.byteLength(data, "base64"), ...(view.includeImages ? { data } : {}) };
}
