// `/agents`: lists this project's subagents (also those of earlier runs), `show|stop|resume ID`,
// and `prune [--force]` (the worktrees of finished agents).
import type { SubagentRecord } from "./records.ts";
import type { SubagentSupervisor } from "./supervisor.ts";

export type AgentsCommandResult = { ok: true; text: string } | { ok: false; message: string };

const USAGE = "usage: /agents [show ID | stop ID | resume ID [PROMPT] | prune [--force]]";

/** What a resume without a prompt asks the agent. */
export const CONTINUE_PROMPT = "Continue the task where you left off, then give your final answer.";

export async function agentsCommand(agents: SubagentSupervisor | undefined, args: string): Promise<AgentsCommandResult> {
  if (!agents) return { ok: false, message: "this run cannot delegate to agents" };
  const [verb = "", id = "", ...rest] = args.split(/\s+/).filter(Boolean);
  if (verb === "") return { ok: true, text: listText(agents.list()) };
  if (verb === "prune" && (id === "" || id === "--force") && rest.length === 0) return { ok: true, text: await agents.prune(id === "--force") };
  if (!["show", "stop", "resume"].includes(verb) || id === "") return { ok: false, message: USAGE };
  const record = agents.get(id);
  if (!record) return { ok: false, message: `no agent "${id}" (/agents lists them)` };
  switch (verb) {
    case "show":
      return { ok: true, text: showText(record) };
    case "stop":
      return agents.stop(id) ? { ok: true, text: `Stopping agent ${id}.` } : { ok: false, message: `agent ${id} is not running (${record.status})` };
    default: {
      const prompt = rest.join(" ") || CONTINUE_PROMPT;
      try {
        return { ok: true, text: await agents.resumeDetached(id, prompt) };
      } catch (err) {
        return { ok: false, message: (err as Error).message };
      }
    }
  }
}

export function listText(records: SubagentRecord[]): string {
  if (records.length === 0) return "No agents in this project yet.";
  const rows = records.map((r) => `  ${r.id}  ${r.status.padEnd(9)} ${r.detached ? "detached  " : "foreground"}  ${r.created.replace("T", " ").slice(0, 16)}  ${label(r)}`);
  return `Agents (/agents show ID for one):\n${rows.join("\n")}`;
}

function label(record: SubagentRecord): string {
  const text = (record.name ?? record.prompt).replace(/\s+/g, " ");
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function showText(r: SubagentRecord): string {
  const lines = [
    `Agent ${r.id}${r.name ? ` (${r.name})` : ""}: ${r.status}${r.error ? ` (${r.error})` : ""}`,
    ...(r.type ? [`  type: ${r.type}`] : []),
    `  runs: ${r.runs}, latest ${r.agent_run_id}; ${r.detached ? "detached" : "foreground"}; parent conversation ${r.parent_session_id}`,
    `  cwd: ${r.cwd}`,
    ...(r.worktree ? [`  worktree: ${r.worktree.path}${r.worktree.removed ? " (removed)" : ""} on branch ${r.worktree.branch}`
      + `${r.worktree.commit ? `, commit ${r.worktree.commit}` : ""}`] : []),
    ...(r.session_file ? [`  transcript: ${r.session_file}`] : []),
    `  started ${r.created}${r.finished ? `, finished ${r.finished}` : ""}`,
    `  task: ${r.prompt}`,
  ];
  if (r.answer) lines.push("", r.answer);
  return lines.join("\n");
}
