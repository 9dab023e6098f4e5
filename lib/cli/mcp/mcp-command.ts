// `zot mcp …`: MCP servers as zot extensions. main.ts routes here with the arguments after `mcp`.
import type { ArgsDef, CommandDef } from "citty";
import { UsageError } from "../../errors.ts";
import { commandHelp, helpFor, type HelpOut } from "../usage.ts";
import { addCommand, runAdd } from "./add.ts";
import { listCommand, runList } from "./list.ts";
import { removeCommand, runRemove } from "./remove.ts";
import { runMcpServe } from "./serve.ts";
import { serveCommand } from "./serve-args.ts";
import { printable } from "../../terminal-text.ts";

interface McpCommand {
  summary: string;
  /** The citty command whose declared args citty renders as the usage. */
  usage: CommandDef<ArgsDef>;
  run(argv: string[], env: Record<string, string | undefined>): Promise<number>;
}

/** The subcommand table, in the order `zot mcp --help` lists them. */
export const MCP_COMMANDS: Record<string, McpCommand> = {
  add: { summary: "Add an MCP server as an extension (stdio command or Streamable HTTP URL)", usage: addCommand, run: runAdd },
  list: { summary: "List the MCP servers zot loads (extension folders and ./.mcp.json)", usage: listCommand, run: runList },
  serve: { summary: "Serve zot's tools to an MCP client over stdio", usage: serveCommand, run: runMcpServe },
  remove: { summary: "Remove an MCP server added with `zot mcp add`", usage: removeCommand, run: runRemove },
};

export function mcpUsage(out: HelpOut = {}, env: Record<string, string | undefined> = process.env): string {
  return helpFor({
    name: "zot mcp", description: "MCP servers as zot extensions.", usage: ["zot mcp <COMMAND> [OPTIONS]"],
    sections: [{ title: "COMMANDS", rows: Object.entries(MCP_COMMANDS).map(([name, cmd]) => [name, cmd.summary]) }],
    footer: "Use `zot mcp <command> --help` for a command's options.",
  }, out, env);
}

function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** Runs `zot mcp <argv…>`; returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function runMcp(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(`zot: missing command\n${mcpUsage(process.stderr, env)}`);
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(mcpUsage(process.stdout, env));
    return 0;
  }
  const command = Object.hasOwn(MCP_COMMANDS, name) ? MCP_COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`zot: unknown command "mcp ${name}"\n${mcpUsage(process.stderr, env)}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    process.stdout.write(await commandHelp(command.usage, "zot mcp", process.stdout, env));
    return 0;
  }
  const hint = `Run \`zot mcp ${name} --help\` for usage.`;
  try {
    return await command.run(rest, env);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`zot: ${printable(err.message)}\n${hint}\n`);
      return 2;
    }
    process.stderr.write(`zot: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
