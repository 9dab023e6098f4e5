// The JSONL session format: a header line, then one entry per line, appended in order. Replaying
// the entries gives the in-memory transcript and the latest model. Message entries hold the
// transcript; the others record what changed it (compaction, clear, model switch).
import type { Message, UserMessage } from "../../providers/types.ts";

export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  type: "session";
  version: number;
  id: string;
  cwd: string;
  /** ISO time the session was created. */
  created: string;
  provider: string;
  model: string;
  /** A fork's origin: the session it branched from and the transcript index of the user message it left out (older builds ignore it). */
  parent?: SessionParent;
  /** Set by an import: the directory it was exported from and when it was imported (older builds ignore it). */
  imported?: { cwd: string; at: string };
}

export interface SessionParent {
  id: string;
  message_index: number;
}

export type SessionEntry =
  | { type: "message"; message: Message; origin_extension?: string }
  /** The transcript became `[summary, ...the last `kept` messages]`. */
  | { type: "compaction"; compaction_id: string; summary: UserMessage; kept: number }
  | { type: "clear" }
  | { type: "model"; provider: string; model: string };

export interface ReplayState {
  messages: Message[];
  provider: string;
  model: string;
}

/** Applies one entry to the replay state (unknown entry types are ignored). */
export function applyEntry(state: ReplayState, entry: SessionEntry): void {
  switch (entry.type) {
    case "message":
      state.messages.push(entry.message);
      break;
    case "compaction":
      state.messages = [entry.summary, ...(entry.kept > 0 ? state.messages.slice(-entry.kept) : [])];
      break;
    case "clear":
      state.messages = [];
      break;
    case "model":
      state.provider = entry.provider;
      state.model = entry.model;
      break;
    default:
      break;
  }
}

export function isHeader(value: unknown): value is SessionHeader {
  const v = value as Partial<SessionHeader> | null;
  return typeof v === "object" && v !== null && v.type === "session" && typeof v.id === "string";
}

export function isEntry(value: unknown): value is SessionEntry {
  const v = value as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null;
  if (typeof v !== "object" || v === null) return false;
  if (v.type === "message") {
    const role = v.message?.role;
    return (role === "user" || role === "assistant" || role === "tool_result") && Array.isArray(v.message?.content);
  }
  return v.type === "compaction" || v.type === "clear" || v.type === "model";
}
