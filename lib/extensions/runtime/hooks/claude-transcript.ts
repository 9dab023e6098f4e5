// The session as Claude Code writes its transcript (one JSON object per line: `type`, `message`
// with `role` and `content` blocks, `uuid`, `timestamp`, `sessionId`), which hooks read from
// `transcript_path` (ralph-loop takes the last assistant text from it, hookify searches it). Kept
// beside zot's sessions of the project, `claude-transcripts/<session-id>.jsonl`, built from the
// lifecycle events as they happen, so it is on disk before any hook of that moment runs.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { cwdKey } from "../../../paths.ts";
import { randomHex } from "../../../random-id.ts";
import { toClaudeCall } from "./claude-tools.ts";

export const TRANSCRIPTS_FOLDER = "claude-transcripts";

export function claudeTranscriptPath(sessionsDir: string, cwd: string, sessionId: string): string {
  return join(sessionsDir, cwdKey(cwd), TRANSCRIPTS_FOLDER, `${sessionId}.jsonl`);
}

type Event = Record<string, unknown> & { event: string };

const textOf = (content: unknown): string => Array.isArray(content)
  ? content.filter((b) => b && typeof b === "object" && (b as { type?: unknown }).type === "text").map((b) => String((b as { text: unknown }).text)).join("\n")
  : "";

export class ClaudeTranscript {
  private last: string | null = null;

  constructor(private readonly path: string, private readonly sessionId: string, private readonly cwd: string) {}

  /** Appends what a lifecycle event adds to the conversation; other events add nothing. */
  record(event: Event): void {
    switch (event.event) {
      case "user_prompt_submit":
        if (typeof event.text === "string") this.line("user", { role: "user", content: event.text });
        return;
      case "assistant_message":
        if (typeof event.text === "string" && event.text !== "") this.line("assistant", { role: "assistant", content: [{ type: "text", text: event.text }] });
        return;
      case "tool_call": {
        const args = (event.tool_args ?? {}) as Record<string, unknown>;
        const call = toClaudeCall(String(event.tool_name), args, this.cwd);
        this.line("assistant", { role: "assistant", content: [{ type: "tool_use", id: event.tool_id, name: call.toolName, input: call.toolInput }] });
        return;
      }
      case "tool_result": {
        const result = (event.result ?? {}) as { content?: unknown; is_error?: unknown };
        this.line("user", { role: "user", content: [{ type: "tool_result", tool_use_id: event.tool_id, content: textOf(result.content), is_error: result.is_error === true }] });
        return;
      }
    }
  }

  private line(type: "user" | "assistant", message: Record<string, unknown>): void {
    const uuid = randomHex(16);
    const entry = { parentUuid: this.last, isSidechain: false, type, message, uuid, timestamp: new Date().toISOString(), sessionId: this.sessionId, cwd: this.cwd };
    this.last = uuid;
    try {
      mkdirSync(join(this.path, ".."), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // A transcript that cannot be written leaves hooks without it; the run goes on.
    }
  }
}
