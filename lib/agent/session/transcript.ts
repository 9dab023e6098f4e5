// The in-memory conversation and its persistence: every change is applied in memory and
// appended to the session file (when there is one) as one JSONL entry. A failing write is
// reported once and never interrupts the run; the in-memory transcript stays authoritative.
import type { SessionFile } from "./session-file.ts";
import type { SessionEntry } from "./session-entries.ts";
import { estimateTokens } from "../compaction/tokens.ts";
import type { Message, UserMessage } from "../../providers/types.ts";

export interface TranscriptOptions {
  id: string;
  file?: SessionFile;
  messages?: Message[];
  /** Receives the first persistence failure. */
  onError?: (message: string) => void;
}

export class Transcript {
  readonly id: string;
  private readonly file: SessionFile | undefined;
  private list: Message[];
  private readonly onError: (message: string) => void;
  private reported = false;

  constructor(options: TranscriptOptions) {
    this.id = options.id;
    this.file = options.file;
    this.list = [...(options.messages ?? [])];
    this.onError = options.onError ?? (() => undefined);
  }

  get messages(): readonly Message[] {
    return this.list;
  }

  /** The session file's path (absent for an in-memory session). */
  get path(): string | undefined {
    return this.file?.path;
  }

  tokenEstimate(): number {
    return estimateTokens(this.list);
  }

  append(message: Message, originExtension?: string): void {
    this.list.push(message);
    this.persist({ type: "message", message, ...(originExtension ? { origin_extension: originExtension } : {}) });
  }

  /** The transcript becomes the summary followed by the last `kept` messages. */
  compact(compactionId: string, summary: UserMessage, kept: number): void {
    this.list = [summary, ...(kept > 0 ? this.list.slice(-kept) : [])];
    this.persist({ type: "compaction", compaction_id: compactionId, summary, kept });
  }

  clear(): void {
    this.list = [];
    this.persist({ type: "clear" });
  }

  recordModel(provider: string, model: string): void {
    this.persist({ type: "model", provider, model });
  }

  private persist(entry: SessionEntry): void {
    if (!this.file) return;
    // Before the first message the file does not exist yet: the header will carry the new model.
    if (entry.type === "model" && !this.file.exists) {
      this.file.header.provider = entry.provider;
      this.file.header.model = entry.model;
      return;
    }
    try {
      this.file.append(entry);
    } catch (err) {
      if (this.reported) return;
      this.reported = true;
      this.onError(`session ${this.id} could not be saved to ${this.file.path}: ${(err as Error).message}`);
    }
  }
}
