// session/load: a saved zot conversation told to the editor again as the updates it would have
// seen live: the user's messages, the assistant's text and thinking, and each tool call with its
// result.
import type * as acp from "@agentclientprotocol/sdk";
import type { Message } from "../../providers/types.ts";
import { resultContent, toolKind, toolPath, toolTitle } from "./acp-tool-calls.ts";

export function replayTranscript(messages: readonly Message[], cwd: string): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      for (const block of message.content) {
        updates.push({ sessionUpdate: "user_message_chunk", content: block.type === "text"
          ? { type: "text", text: block.text } : { type: "image", mimeType: block.mime_type, data: block.data } });
      }
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text) updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
        else if (block.type === "thinking" && block.thinking) updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
        else if (block.type === "tool_call") {
          const path = toolPath(block.name, block.args, cwd);
          updates.push({ sessionUpdate: "tool_call", toolCallId: block.id, title: toolTitle(block.name, block.args), kind: toolKind(block.name),
            status: "pending", rawInput: block.args, locations: path ? [{ path }] : [] });
        }
      }
    } else {
      updates.push({ sessionUpdate: "tool_call_update", toolCallId: message.tool_id, status: message.is_error ? "failed" : "completed",
        content: resultContent(message.content) });
    }
  }
  return updates;
}
