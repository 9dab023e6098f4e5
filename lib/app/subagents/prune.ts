// `/agents prune` and `zot agents prune`: removes the git worktrees of agents that are no longer
// running (their branches, with the committed work, stay for the user to merge or delete). A
// worktree with uncommitted changes is kept unless forced.
import { existsSync } from "node:fs";
import type { SubagentRecords } from "./records.ts";
import { removeWorktree } from "./worktree.ts";

export interface PruneOptions {
  /** Only this project's agents; absent: every project's. */
  project?: string;
  /** Remove worktrees with uncommitted changes too. */
  force?: boolean;
}

/** Prunes and says what it did, a line per worktree. */
export async function pruneWorktrees(records: SubagentRecords, options: PruneOptions = {}): Promise<string> {
  const lines: string[] = [];
  for (const record of records.list(options.project)) {
    const worktree = record.worktree;
    if (!worktree || worktree.removed || record.status === "running") continue;
    if (existsSync(worktree.path)) {
      try {
        await removeWorktree(worktree.path, options.force);
      } catch (err) {
        lines.push(`kept ${worktree.path} (${record.id}): ${(err as Error).message.split("\n")[0]}`
          + (options.force ? "" : "; --force removes it with its uncommitted changes"));
        continue;
      }
    }
    await records.save({ ...record, worktree: { ...worktree, removed: true } });
    lines.push(`removed ${worktree.path} (${record.id}); branch ${worktree.branch} stays`);
  }
  if (lines.length === 0) return `No finished agent worktrees${options.project ? ` in ${options.project}` : ""}.`;
  return lines.join("\n");
}
