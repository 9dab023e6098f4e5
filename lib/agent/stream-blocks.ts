// A prompt's content blocks and times as json/rpc clients see them (the Go zot's message shape):
// text, and images as a byte count instead of base64.
import { Buffer } from "node:buffer";
import type { HostEvent, StreamBlock } from "../events/index.ts";
import type { UserContent, UserMessage } from "../providers/types.ts";

/** Text and image blocks (a user prompt, a tool result); images become their decoded size. */
export function userBlocks(content: readonly UserContent[]): StreamBlock[] {
  return content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : { type: "image", mime_type: block.mime_type, bytes: Buffer.byteLength(block.data, "base64") });
}

/** An RFC 3339 time for a message timestamp (milliseconds since the epoch), now when absent. */
export function rfc3339(timestamp?: number): string {
  return new Date(timestamp ?? Date.now()).toISOString();
}

/** The `user_message` event for a prompt appended to the transcript. */
export function userMessageEvent(message: UserMessage): Extract<HostEvent, { type: "user_message" }> {
  return { type: "user_message", content: userBlocks(message.content), time: rfc3339(message.timestamp) };
}
