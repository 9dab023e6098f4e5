// Top-level dispatch. citty cannot mix a positional prompt with subcommands, so `ext`, `mcp`, `agents`, `sessions`, `login`, `logout`, `upgrade` and `completion` are routed
// here and the root command stays subcommand-free.
import { SUBAGENT_CHILD_FLAG } from "../app/subagents/child-spec.ts";
import { isVersionRequest, versionText } from "./version-text.ts";
import { useDirectStdio, useStdStreams, writeStdout } from "../std-output.ts";

/** The subcommands, each loaded only when named. */
const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  ext: async (argv) => (await import("./ext/ext-command.ts")).runExt(argv),
  mcp: async (argv) => (await import("./mcp/mcp-command.ts")).runMcp(argv),
  upgrade: async (argv) => (await import("./upgrade.ts")).runUpgrade(argv),
  agents: async (argv) => (await import("./agents.ts")).runAgents(argv),
  sessions: async (argv) => (await import("./sessions.ts")).runSessions(argv),
  login: async (argv) => (await import("./login.ts")).runLogin(argv),
  logout: async (argv) => (await import("./login.ts")).runLogout(argv),
  completion: async (argv) => (await import("./completion/completion-command.ts")).runCompletion(argv),
  // Internal: a subagent runner started by a parent zot (its task arrives on stdin).
  [SUBAGENT_CHILD_FLAG]: async () => (await import("../modes/subagent-child.ts")).runSubagentChild(),
};

export async function main(argv: string[]): Promise<number> {
  const subcommand = Object.hasOwn(SUBCOMMANDS, argv[0] ?? "") ? SUBCOMMANDS[argv[0]!] : undefined;
  if (subcommand) {
    useStdStreams();
    return subcommand(argv.slice(1));
  }
  if (isVersionRequest(argv)) {
    useDirectStdio();
    writeStdout(await versionText(argv.includes("--verbose")));
    return 0;
  }
  const { runRoot } = await import("./root.ts");
  return runRoot(argv);
}
