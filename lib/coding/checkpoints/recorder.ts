// Records a checkpoint of each prompt, lazily: before the prompt's first tool call that may change
// files (anything but read, glob, grep and skill), the work tree's changed files as they are then
// (in a git repository: HEAD and every file that differs from it, untracked ones included), and
// before each write or edit the file it changes. After any other such call (bash, an extension's
// tool) the files git sees changed since are noted as touched. A prompt that changes nothing
// costs nothing.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Checkpoint, CheckpointStore, RecordedFile } from "./checkpoint-store.ts";
import { changedSince, headOf, workTreeOf } from "./git-tree.ts";

/** A file past this size is not recorded (a rewind leaves it as it is). */
const FILE_MAX_BYTES = 8 * 1024 * 1024;
/** A work tree with more changed files than this is not snapshot (write and edit still are). */
const CHANGED_MAX = 2_000;

export interface PromptRef {
  session: string;
  index: number;
  text: string;
}

export class CheckpointRecorder {
  private current: { session: string; checkpoint: Checkpoint } | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly store: CheckpointStore, private readonly warn: (message: string) => void) {}

  /**
   * Called before a tool runs in the prompt `prompt` (not for TOOLS_CHANGING_NO_FILE: the caller
   * skips those before loading this); resolves once what it may change is recorded.
   */
  beforeTool(prompt: PromptRef, cwd: string, toolName: string, args: Record<string, unknown>): Promise<void> {
    return this.serially(() => this.record(prompt, cwd, toolName, args));
  }

  /** Called after a tool ran: what bash or an extension's tool changed (write and edit were recorded before). */
  afterTool(prompt: PromptRef, toolName: string): Promise<void> {
    if (toolName === "write" || toolName === "edit") return Promise.resolve();
    return this.serially(() => this.noteTouched(prompt));
  }

  /** Calls of one response may run together: one records at a time. */
  private serially(step: () => Promise<void>): Promise<void> {
    const work = this.queue.then(step).catch((err: Error) => this.warn(`checkpoint not recorded: ${err.message}`));
    this.queue = work;
    return work;
  }

  private async noteTouched(prompt: PromptRef): Promise<void> {
    const checkpoint = this.current?.session === prompt.session && this.current.checkpoint.index === prompt.index ? this.current.checkpoint : undefined;
    const git = checkpoint?.git;
    if (!checkpoint || !git) return;
    const touched = new Set(checkpoint.touched ?? []);
    const before = touched.size;
    const now = await changedSince(git.top, git.head);
    for (const path of new Set([...now, ...Object.keys(git.stamps)])) {
      if (!touched.has(path) && stampOf(path) !== git.stamps[path]) touched.add(path);
    }
    if (touched.size === before) return;
    checkpoint.touched = [...touched];
    this.store.save(prompt.session, checkpoint);
  }

  private async record(prompt: PromptRef, cwd: string, toolName: string, args: Record<string, unknown>): Promise<void> {
    let changed = false;
    if (this.current?.session !== prompt.session || this.current.checkpoint.index !== prompt.index) {
      const git = await this.workTree(cwd);
      this.current = { session: prompt.session,
        checkpoint: { index: prompt.index, prompt: prompt.text.slice(0, 80), at: new Date().toISOString(), files: {}, ...(git ? { git } : {}) } };
      changed = true;
    }
    const files = this.current.checkpoint.files;
    if ((toolName === "write" || toolName === "edit") && typeof args.path === "string" && args.path !== "") {
      const written = args.path === "~" || args.path.startsWith("~/") ? join(homedir(), args.path.slice(1)) : args.path;
      const path = isAbsolute(written) ? written : resolve(cwd, written);
      if (!(path in files)) {
        const recorded = this.fileNow(path);
        if (recorded !== undefined) files[path] = recorded;
        changed = true;
      }
    }
    if (changed) this.store.save(this.current.session, this.current.checkpoint);
  }

  private async workTree(cwd: string): Promise<Checkpoint["git"]> {
    const top = await workTreeOf(cwd);
    if (!top) return undefined;
    const head = await headOf(top);
    const paths = await changedSince(top, head);
    if (paths.length > CHANGED_MAX) {
      this.warn(`checkpoint: ${paths.length} changed files in ${top} is more than ${CHANGED_MAX}; only files zot writes are recorded`);
      return undefined;
    }
    const changed: Record<string, RecordedFile> = {};
    const stamps: Record<string, string> = {};
    for (const path of paths) {
      const recorded = this.fileNow(path);
      if (recorded !== undefined) changed[path] = recorded;
      stamps[path] = stampOf(path);
    }
    return { top, head, changed, stamps };
  }

  /** The file's content kept in the store (null: it does not exist; undefined: too big or unreadable to record). */
  private fileNow(path: string): RecordedFile | undefined {
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > FILE_MAX_BYTES) return undefined;
      return this.store.keep(readFileSync(path));
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
    }
  }
}

/** A file's `mtime:size`, or "absent". */
function stampOf(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return "absent";
  }
}
