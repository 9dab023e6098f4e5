// Content blocks and times as json/rpc clients see them (the Go zot's message shape): text,
// images as a byte count, tool calls as `{type:"tool_call", id, name, args}`.
import { Buffer } from "node:buffer";
import type { HostEvent, StreamBlock } from "./events.ts";
import type { AssistantContent, UserContent, UserMessage } from "../providers/types.ts";

/** Text and image blocks (a user prompt, a tool result); images become their decoded size. */
export function userBlocks(content: readonly UserContent[]): StreamBlock[] {
  return content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : { type: "image", mime_type: block.mime_type, bytes: Buffer.byteLength(block.data, "base64") });
}

/** An assistant response's text and tool calls (thinking stays private to the transcript). */
export function assistantBlocks(content: readonly AssistantContent[]): StreamBlock[] {
  return content.flatMap((block): StreamBlock[] => {
    if (block.type === "text") return block.text === "" ? [] : [{ type: "text", text: block.text }];
    if (block.type === "tool_call") return [{ type: "tool_call", id: block.id, name: block.name, args: block.args }];
    return [];
  });
}

/** An RFC 3339 time for a message timestamp (milliseconds since the epoch), now when absent. */
export function rfc3339(timestamp?: number): string {
  return new Date(timestamp ?? Date.now()).toISOString();
}

/** The `user_message` event for a prompt appended to the transcript. */
export function userMessageEvent(message: UserMessage): Extract<HostEvent, { type: "user_message" }> {
  return { type: "user_message", content: userBlocks(message.content), time: rfc3339(message.timestamp) };
}
