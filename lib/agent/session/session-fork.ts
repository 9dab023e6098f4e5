// Forking a conversation at one of its user messages: a new session file holding everything
// before that message, its header naming the parent and the fork point. The source file is
// never written. What the user typed at the fork point comes back for the input line.
import { join } from "node:path";
import type { Message } from "../../providers/types.ts";
import { SessionError, SessionFile } from "./session-file.ts";
import { promptText } from "./session-family.ts";
import { newSessionId, sessionDirFor, type SessionLocation } from "./session-select.ts";

/** A user message a fork can start at: its transcript index and its text. */
export interface ForkPoint {
  index: number;
  text: string;
}

export interface ForkRequest extends SessionLocation {
  parentId: string;
  /** The parent's transcript (replayed and repaired). */
  messages: readonly Message[];
  /** Transcript index of the user message the fork leaves out. */
  messageIndex: number;
  provider: string;
  model: string;
  now?: Date;
}

/** The user prompts of a transcript (tool results are not prompts). */
export function forkPoints(messages: readonly Message[]): ForkPoint[] {
  return messages.flatMap((message, index) => {
    const text = promptText(message);
    return text ? [{ index, text }] : [];
  });
}

/**
 * Writes the fork and returns its id, its path and the prompt at the fork point. A fork at the
 * first prompt holds no messages yet, so its file is written with the header alone.
 */
export function forkSession(request: ForkRequest): { id: string; path: string; prompt: string } {
  const point = forkPoints(request.messages).find((p) => p.index === request.messageIndex);
  if (!point) {
    throw new SessionError(`message ${request.messageIndex} is not a user prompt of session ${request.parentId}`
      + " (choose one of the indexes /fork lists)");
  }
  const id = newSessionId(request.now);
  const path = join(sessionDirFor(request), `${id}.jsonl`);
  const file = SessionFile.create(path, {
    id, cwd: request.cwd, created: (request.now ?? new Date()).toISOString(), provider: request.provider, model: request.model,
    parent: { id: request.parentId, message_index: request.messageIndex },
  });
  for (const message of request.messages.slice(0, request.messageIndex)) file.append({ type: "message", message });
  if (!file.exists) file.writeHeader();
  return { id, path, prompt: point.text };
}
