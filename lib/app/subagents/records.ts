// Agent records under `$ZOT_HOME/agents/<id>.json`: what `/agents` and rpc `get_agents` list,
// also after a restart, and what a resume continues. Written out as they are (snake_case).
// Loading a record never emits an event.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { processAlive } from "../../process/group.ts";
import type { RunStatus } from "../../events/index.ts";

export type SubagentStatus = "running" | RunStatus;

export interface SubagentRecord {
  id: string;
  /** The label the model gave the task (the events' `name`; absent, its type, then its id). */
  name?: string;
  /** Its agent type (agent-types.ts), kept for a resume. */
  type?: string;
  /** The project it belongs to: the parent's working directory, resolved (absent in older records: `cwd`). */
  project?: string;
  parent_session_id: string;
  cwd: string;
  status: SubagentStatus;
  detached: boolean;
  /** The child's transcript; absent when the parent keeps no session files. */
  session_file?: string;
  prompt: string;
  answer?: string;
  error?: string;
  /** The latest runner invocation. */
  agent_run_id: string;
  runs: number;
  /** `commit`: the latest commit of a completed run's changes, or why it failed; `removed`: pruned (the branch stays). */
  worktree?: { branch: string; path: string; commit?: string; commit_error?: string; removed?: boolean };
  created: string;
  updated: string;
  finished?: string;
  /** The zot process supervising the running agent. */
  owner_pid?: number;
  /** A detached agent's answer was handed to its parent conversation. */
  delivered?: boolean;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class SubagentRecords {
  constructor(readonly dir: string) {}

  pathOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  get(id: string): SubagentRecord | undefined {
    if (!ID.test(id)) return undefined;
    try {
      return settle(JSON.parse(readFileSync(this.pathOf(id), "utf8")) as SubagentRecord);
    } catch {
      return undefined;
    }
  }

  /** Every readable record (of `project`, when given), newest first. */
  list(project?: string): SubagentRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const records = names.filter((n) => n.endsWith(".json")).flatMap((n) => {
      const record = this.get(n.slice(0, -".json".length));
      return record ? [record] : [];
    });
    return records.filter((r) => project === undefined || projectOf(r) === project).sort((a, b) => b.created.localeCompare(a.created));
  }

  save(record: SubagentRecord): Promise<void> {
    return writeFileAtomic(this.pathOf(record.id), `${JSON.stringify(record, null, 2)}\n`);
  }
}

export function projectOf(record: SubagentRecord): string {
  return record.project ?? record.cwd;
}

/** A record left `running` by a zot that is gone reads as failed (nothing is emitted for it). */
function settle(record: SubagentRecord): SubagentRecord {
  if (record.status !== "running") return record;
  if (record.owner_pid === process.pid || (record.owner_pid !== undefined && processAlive(record.owner_pid))) return record;
  return { ...record, status: "failed", error: record.error ?? "zot exited while the agent was running" };
}
