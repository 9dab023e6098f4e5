// What hooks that ran in the background leave for the model: their context (additionalContext,
// systemMessage) and, for `asyncRewake`, an exit 2's stderr after the rewake message. It goes
// with the next prompt or tool result; a blocked moment keeps it for the one after.
import type { EventInterceptResponseFrame } from "../../../protocol/index.ts";
import { contextOf, stringField, type HookReply } from "./hook-output.ts";

type Answer = Omit<EventInterceptResponseFrame, "type" | "id">;

export class LaterContext {
  private pending: string[] = [];

  /** Keeps what a background hook's reply has for the model. */
  add(reply: HookReply): void {
    const rewake = reply.hook.rewake && reply.blocking ? [reply.hook.rewake.message, reply.stderr || reply.text].filter(Boolean).join("\n\n") : undefined;
    for (const context of [rewake, contextOf(reply, false), stringField(reply.json, "systemMessage")]) {
      if (context?.trim()) this.pending.push(context);
    }
  }

  /** `answer` with what is kept added to its context (unless it blocks the moment). */
  attach(answer: Answer): Answer {
    if (this.pending.length === 0 || answer.block) return answer;
    const context = [answer.additional_context, ...this.pending].filter((c): c is string => typeof c === "string" && c.trim() !== "").join("\n\n");
    this.pending = [];
    return { ...answer, additional_context: context };
  }
}
