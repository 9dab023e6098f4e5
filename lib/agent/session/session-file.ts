// One session's append-only JSONL file. Entries are appended synchronously, one line each, so a
// process killed mid-turn leaves at worst a torn last line. Loading skips lines that do not
// parse (reporting them), never fails on them, and repairs the transcript for providers.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { Buffer } from "node:buffer";
import { dirname } from "node:path";
import { applyEntry, isEntry, isHeader, SESSION_FORMAT_VERSION, type ReplayState, type SessionEntry, type SessionHeader } from "./session-entries.ts";
import { repairTranscript } from "./session-repair.ts";
import type { Message } from "../../providers/types.ts";

/** A session that cannot be opened at all (no file, no header); the message says which and why. */
export class SessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionError";
  }
}

export interface LoadedSession {
  header: SessionHeader;
  /** The replayed, repaired transcript. */
  messages: Message[];
  /** Latest provider and model (the header's, or a later model switch). */
  provider: string;
  model: string;
  /** Lines that could not be read (a torn last line after a crash, or damage). */
  skippedLines: number;
  /** Synthetic results added for tool calls interrupted before their result was written. */
  interruptedCalls: number;
  warnings: string[];
}

export function readSession(path: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new SessionError(`cannot read session ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let header: SessionHeader | undefined;
  const warnings: string[] = [];
  let skipped = 0;
  let state: ReplayState | undefined;
  lines.forEach((line, index) => {
    const value = parseLine(line);
    if (!header) {
      if (!isHeader(value)) throw new SessionError(`${path} is not a zot session: line 1 is not a session header`);
      header = value;
      state = { messages: [], provider: value.provider, model: value.model };
      return;
    }
    if (!isEntry(value)) {
      skipped++;
      const torn = index === lines.length - 1 && !text.endsWith("\n");
      warnings.push(torn ? `skipped a torn last line (${line.length} bytes) in ${path}` : `skipped unreadable line ${index + 1} in ${path}`);
      return;
    }
    applyEntry(state!, value);
  });
  if (!header || !state) throw new SessionError(`${path} is empty: no session header`);
  const repaired = repairTranscript(state.messages);
  if (repaired.added) warnings.push(`${repaired.added} tool call(s) had no result and were marked interrupted`);
  return {
    header,
    messages: repaired.messages,
    provider: state.provider,
    model: state.model,
    skippedLines: skipped,
    interruptedCalls: repaired.added,
    warnings,
  };
}

/** Writes entries to one session file; the file (and its folder) is created at the first entry. */
export class SessionFile {
  private created: boolean;
  private tailChecked = false;

  private constructor(readonly path: string, readonly header: SessionHeader, created: boolean) {
    this.created = created;
  }

  /** A new session at `path`; nothing is written until the first entry. */
  static create(path: string, header: Omit<SessionHeader, "type" | "version">): SessionFile {
    return new SessionFile(path, { type: "session", version: SESSION_FORMAT_VERSION, ...header }, false);
  }

  /** An existing session: its writer and its loaded contents. */
  static open(path: string): { file: SessionFile; session: LoadedSession } {
    const session = readSession(path);
    return { file: new SessionFile(path, session.header, true), session };
  }

  get id(): string {
    return this.header.id;
  }

  /** True once the file exists on disk. */
  get exists(): boolean {
    return this.created;
  }

  /** Writes the header alone: a session that must exist before its first entry (a fork at its first prompt). */
  writeHeader(): void {
    if (this.created) return;
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, `${JSON.stringify(this.header)}\n`, { mode: 0o600 });
    this.created = true;
    this.tailChecked = true;
  }

  append(entry: SessionEntry): void {
    if (!this.created) {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, `${JSON.stringify(this.header)}\n${JSON.stringify(entry)}\n`, { mode: 0o600 });
      this.created = true;
      this.tailChecked = true;
      return;
    }
    // After a crash the file may end in a torn line: start ours on a fresh line.
    const prefix = !this.tailChecked && !endsWithNewline(this.path) ? "\n" : "";
    this.tailChecked = true;
    appendFileSync(this.path, `${prefix}${JSON.stringify(entry)}\n`);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line.endsWith("\r") ? line.slice(0, -1) : line);
  } catch {
    return undefined;
  }
}

function endsWithNewline(path: string): boolean {
  if (!existsSync(path)) return true;
  const size = statSync(path).size;
  if (size === 0) return true;
  const fd = openSync(path, "r");
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
