// Makes a reloaded transcript acceptable to providers after a crash or kill mid-turn: every
// assistant tool call gets a result (a synthetic "interrupted" error when the real one was
// never written), and results that answer no call are dropped.
import type { Message, ToolResultMessage } from "../../providers/types.ts";

export const INTERRUPTED_TEXT = "interrupted: the session ended before this tool call finished, so it has no result.";

export interface RepairResult {
  messages: Message[];
  /** Synthetic results added. */
  added: number;
  /** Orphaned results removed. */
  dropped: number;
}

export function repairTranscript(input: readonly Message[]): RepairResult {
  const messages: Message[] = [];
  let added = 0;
  let dropped = 0;
  let i = 0;
  while (i < input.length) {
    const message = input[i]!;
    i++;
    if (message.role === "tool_result") {
      dropped++; // not directly after its call: no call to answer
      continue;
    }
    messages.push(message);
    if (message.role !== "assistant") continue;
    const callIds = message.content.flatMap((block) => (block.type === "tool_call" ? [{ id: block.id, name: block.name }] : []));
    const answered = new Set<string>();
    while (i < input.length && input[i]!.role === "tool_result") {
      const result = input[i] as ToolResultMessage;
      i++;
      if (callIds.some((call) => call.id === result.tool_id) && !answered.has(result.tool_id)) {
        answered.add(result.tool_id);
        messages.push(result);
      } else {
        dropped++;
      }
    }
    for (const call of callIds) {
      if (answered.has(call.id)) continue;
      added++;
      messages.push({
        role: "tool_result",
        tool_id: call.id,
        tool_name: call.name,
        content: [{ type: "text", text: INTERRUPTED_TEXT }],
        is_error: true,
      });
    }
  }
  return { messages, added, dropped };
}
