// The conversation a session is in: its transcript, the cumulative usage of its model calls and
// what loading its file had to repair (said once, as `error` events, never hidden). A session
// moves to another conversation (/resume, a working-directory change) by replacing this whole
// object, so nothing of the old one leaks into the new one.
import { addUsage, emptyUsage } from "../../providers/usage.ts";
import type { Usage } from "../../providers/types.ts";
import type { Emitter } from "../contracts/emitter.ts";
import type { OpenedSession } from "./session-select.ts";
import { Transcript } from "./transcript.ts";

export class Conversation {
  readonly transcript: Transcript;
  private total = emptyUsage();
  /** The part of `total` its subagents spent; undefined until one has returned. */
  private children: Usage | undefined;
  private repairNotes: string[];

  /** `opened` absent: a fresh conversation `id` without a session file. */
  constructor(id: string, opened: OpenedSession | undefined, private readonly emitter: Emitter) {
    // The file itself stays as it was.
    this.repairNotes = (opened?.loaded?.warnings ?? [])
      .map((warning) => `session ${id} was repaired while loading (the file is left unchanged): ${warning}`);
    this.transcript = new Transcript({
      id,
      file: opened?.file,
      messages: opened?.loaded?.messages ?? [],
      onError: (message) => emitter.host({ type: "error", message }),
    });
  }

  /** The usage of every model call so far, its subagents' included (a copy, with their part as `children`). */
  get usage(): Usage & { children?: Usage } {
    return { ...this.total, ...(this.children ? { children: { ...this.children } } : {}) };
  }

  /** Emits the repairs not reported yet, one `error` event each. */
  reportRepairs(): void {
    for (const message of this.repairNotes.splice(0)) this.emitter.host({ type: "error", message });
  }

  /** Adds one model call's usage (a step or a compaction summary) and emits the `usage` event. */
  addUsage(step: Usage): void {
    this.total = addUsage(this.total, step);
    this.emitter.host({ type: "usage", ...step, cumulative: this.usage });
  }

  /** Adds what a returned subagent spent: it shows in the next `usage` event's cumulative figures. */
  addChildUsage(spent: Usage): void {
    this.total = addUsage(this.total, spent);
    this.children = addUsage(this.children, spent);
  }
}
