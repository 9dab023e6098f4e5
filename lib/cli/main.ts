// Top-level dispatch. citty cannot mix a positional prompt with subcommands, so `ext`, `mcp`, `agents`, `sessions`, `login`, `logout`, `upgrade` and `completion` are routed
// here and the root command stays subcommand-free.
import { SUBAGENT_CHILD_FLAG } from "../app/subagents/child-spec.ts";
import { isVersionRequest, versionText } from "./version-text.ts";

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "ext") {
    const { runExt } = await import("./ext/ext-command.ts");
    return runExt(argv.slice(1));
  }
  if (argv[0] === "mcp") {
    const { runMcp } = await import("./mcp/mcp-command.ts");
    return runMcp(argv.slice(1));
  }
  if (argv[0] === "upgrade") {
    const { runUpgrade } = await import("./upgrade.ts");
    return runUpgrade(argv.slice(1));
  }
  if (argv[0] === "agents") {
    const { runAgents } = await import("./agents.ts");
    return runAgents(argv.slice(1));
  }
  if (argv[0] === "sessions") {
    const { runSessions } = await import("./sessions.ts");
    return runSessions(argv.slice(1));
  }
  if (argv[0] === "login" || argv[0] === "logout") {
    const { runLogin, runLogout } = await import("./login.ts");
    return argv[0] === "login" ? runLogin(argv.slice(1)) : runLogout(argv.slice(1));
  }
  if (argv[0] === "completion") {
    const { runCompletion } = await import("./completion/completion-command.ts");
    return runCompletion(argv.slice(1));
  }
  // Internal: a subagent runner started by a parent zot (its task arrives on stdin).
  if (argv[0] === SUBAGENT_CHILD_FLAG) {
    const { runSubagentChild } = await import("../modes/subagent-child.ts");
    return runSubagentChild();
  }
  if (isVersionRequest(argv)) {
    process.stdout.write(await versionText(argv.includes("--verbose")));
    return 0;
  }
  const { runRoot } = await import("./root.ts");
  return runRoot(argv);
}
