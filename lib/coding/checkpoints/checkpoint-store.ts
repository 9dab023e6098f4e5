// Where checkpoints live: one JSON line per update of a prompt's checkpoint in
// `checkpoints/<session>.jsonl` beside the project's sessions, the last line of a prompt winning,
// and file contents once each by hash in `checkpoints/blobs/`. A damaged line is skipped.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../lazy-node.ts";

/** Tools that change no file: no checkpoint is needed before them, and nothing to note after. */
export const TOOLS_CHANGING_NO_FILE: ReadonlySet<string> = new Set(["read", "glob", "grep", "skill"]);

/** A file's content as recorded: its blob's hash, or null when the file did not exist. */
export type RecordedFile = string | null;

export interface Checkpoint {
  /** The prompt's message index in its conversation (where /fork and /rewind cut). */
  index: number;
  /** The prompt's first words, for the picker. */
  prompt: string;
  at: string;
  /**
   * The work tree before the prompt's first change: HEAD, its changed files (absolute paths) and
   * their `mtime:size` stamps, by which later changes by other tools (bash) are seen.
   */
  git?: { top: string; head: string | null; changed: Record<string, RecordedFile>; stamps: Record<string, string> };
  /** Files zot's write and edit tools changed in this prompt, as they were before (absolute paths). */
  files: Record<string, RecordedFile>;
  /** Files other tools (bash, extensions) changed in this prompt, as git sees them. */
  touched?: string[];
}

export class CheckpointStore {
  constructor(private readonly dir: string) {}

  private file(session: string): string {
    return join(this.dir, `${session}.jsonl`);
  }

  private blob(hash: string): string {
    return join(this.dir, "blobs", hash);
  }

  /** Keeps `content` and gives its hash. */
  keep(content: Buffer): string {
    const hash = sha256Hex(content);
    const path = this.blob(hash);
    if (!existsSync(path)) {
      mkdirSync(join(this.dir, "blobs"), { recursive: true, mode: 0o700 });
      writeFileSync(path, content, { mode: 0o600 });
    }
    return hash;
  }

  read(hash: string): Buffer | undefined {
    try {
      return readFileSync(this.blob(hash));
    } catch {
      return undefined;
    }
  }

  save(session: string, checkpoint: Checkpoint): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    appendFileSync(this.file(session), `${JSON.stringify(checkpoint)}\n`, { mode: 0o600 });
  }

  /** The session's checkpoints by prompt index, in index order. */
  list(session: string): Checkpoint[] {
    let text = "";
    try {
      text = readFileSync(this.file(session), "utf8");
    } catch {
      return [];
    }
    const byIndex = new Map<number, Checkpoint>();
    for (const line of text.split("\n")) {
      try {
        const entry = JSON.parse(line) as Checkpoint;
        if (typeof entry.index === "number" && typeof entry.files === "object") byIndex.set(entry.index, entry);
      } catch {
        // a torn last line: the earlier ones stand
      }
    }
    return [...byIndex.values()].sort((a, b) => a.index - b.index);
  }
}
