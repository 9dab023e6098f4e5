// `zot agents [list | prune [--force] [--all]]`: the subagents of this project (the current
// directory's) without starting a run, and the removal of finished agents' worktrees.
import { SubagentRecords } from "../app/subagents/records.ts";
import { listText } from "../app/subagents/agents-command.ts";
import { pruneWorktrees } from "../app/subagents/prune.ts";
import { projectKey } from "../extensions/catalog/trust/gate.ts";
import { zotPaths } from "../paths.ts";
import { printable } from "../terminal-text.ts";
import { join } from "node:path";
import { helpFor, type HelpOut } from "./usage.ts";

export function agentsUsage(out: HelpOut, env: Record<string, string | undefined>): string {
  return helpFor({
    name: "zot agents", description: "Subagent records and worktrees.", usage: ["zot agents [list]", "zot agents prune [--force] [--all]"],
    sections: [{ title: "COMMANDS", rows: [
      ["list", "this project's agents, newest first (the default)"],
      ["prune", "remove the worktrees of finished agents (their branches stay); --force also those with uncommitted "
        + "changes, --all every project's"],
    ] }],
  }, out, env);
}

export async function runAgents(argv: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<number> {
  const [verb = "list", ...flags] = argv;
  if (verb === "help" || argv.some((a) => a === "--help" || a === "-h")) {
    process.stdout.write(agentsUsage(process.stdout, env));
    return 0;
  }
  const records = new SubagentRecords(join(zotPaths(env).home, "agents"));
  const unknownFlag = flags.find((f) => !(verb === "prune" && (f === "--force" || f === "--all")));
  if ((verb !== "list" && verb !== "prune") || unknownFlag !== undefined) {
    process.stderr.write(`zot: unknown ${unknownFlag !== undefined ? `option "${unknownFlag}"` : `command "agents ${verb}"`}\n${agentsUsage(process.stderr, env)}`);
    return 2;
  }
  const project = projectKey(cwd);
  const text = verb === "list" ? listText(records.list(project))
    : await pruneWorktrees(records, { ...(flags.includes("--all") ? {} : { project }), force: flags.includes("--force") });
  process.stdout.write(`${printable(text)}\n`);
  return 0;
}
