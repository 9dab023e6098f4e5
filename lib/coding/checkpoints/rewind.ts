// Putting files back as they were before a prompt: each file zot's write and edit tools changed
// since then as it was before the first of those changes, and each file other tools (bash)
// changed, as git saw it at the checkpoint (its snapshot of changed files, else HEAD then). Files
// only the user changed stay as they are; the index, HEAD, branches and refs are never touched.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import type { Checkpoint, CheckpointStore, RecordedFile } from "./checkpoint-store.ts";
import { contentAt } from "./git-tree.ts";

export interface RewindPlan {
  /** Files to write back, with their content then. */
  restore: Array<{ path: string; content: Buffer }>;
  /** Files that did not exist then. */
  remove: string[];
  /** Files whose earlier content was not recorded (too big, or its record is gone): left as they are. */
  unknown: string[];
}

/** What rewinding to the first of `since` (a session's checkpoints from the chosen prompt on) changes. */
export async function planRewind(store: CheckpointStore, since: readonly Checkpoint[]): Promise<RewindPlan> {
  const plan: RewindPlan = { restore: [], remove: [], unknown: [] };
  const first = since[0];
  if (!first) return plan;
  const candidates = new Set(since.flatMap((c) => [...Object.keys(c.files), ...c.touched ?? []]));
  for (const path of [...candidates].sort()) {
    const then = await contentThen(store, since, path);
    if (then === undefined) {
      plan.unknown.push(path);
      continue;
    }
    const now = readNow(path);
    if (then === null) {
      if (now !== null) plan.remove.push(path);
    } else if (now === null || !now.equals(then)) plan.restore.push({ path, content: then });
  }
  return plan;
}

/** The file before the first checkpoint: null when it did not exist, undefined when not known. */
async function contentThen(store: CheckpointStore, since: readonly Checkpoint[], path: string): Promise<Buffer | null | undefined> {
  const fromBlob = (recorded: RecordedFile) => (recorded === null ? null : store.read(recorded));
  const written = since.find((c) => path in c.files);
  if (written) return fromBlob(written.files[path]!);
  const git = since[0]!.git;
  if (!git) return undefined;
  if (path in git.changed) return fromBlob(git.changed[path]!);
  const rel = relative(git.top, path);
  if (rel.startsWith(`..${sep}`) || !git.head) return null;
  return (await contentAt(git.top, git.head, rel.split(sep).join("/"))) ?? null;
}

function readNow(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

export function applyRewind(plan: RewindPlan): void {
  for (const { path, content } of plan.restore) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  for (const path of plan.remove) rmSync(path, { force: true });
}
