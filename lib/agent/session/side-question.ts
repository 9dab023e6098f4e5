// A side question (/btw): one model request with the conversation so far as context and no tools.
// Its answer is shown and never joins the conversation or its file; its tokens and cost count.
import type { Message, Provider, Usage } from "../../providers/types.ts";

export type SideAnswer = { ok: true; text: string; usage?: Usage } | { ok: false; error: string; usage?: Usage };

export interface SideQuestion {
  provider: Provider;
  model: string;
  system: string;
  messages: readonly Message[];
  question: string;
  signal?: AbortSignal;
}

/** The conversation up to its last finished turn: a turn still running (tool calls without results) is left out. */
export function finishedTurns(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant" && m.stop !== "tool_use" && m.stop !== "error" && m.stop !== "aborted") return messages.slice(0, i + 1);
  }
  return [];
}

export async function askAside(q: SideQuestion): Promise<SideAnswer> {
  const aside = "(A side question: answer it from the conversation so far, briefly. Tools are not available for it.)";
  let done: Extract<Message, { role: "assistant" }> | undefined;
  try {
    for await (const event of q.provider.stream({
      model: q.model,
      system: q.system,
      messages: [...finishedTurns(q.messages), { role: "user", content: [{ type: "text", text: `${q.question}\n\n${aside}` }] }],
      tools: [],
      ...(q.signal ? { signal: q.signal } : {}),
    })) {
      if (event.type === "done") done = event.message;
    }
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const usage = done?.usage ? { usage: done.usage } : {};
  if (!done || done.stop === "error" || done.stop === "aborted") return { ok: false, error: done?.error ?? "the side question was not answered", ...usage };
  const text = done.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("").trim();
  return { ok: true, text, ...usage };
}
