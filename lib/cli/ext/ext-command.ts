// `zot ext …`: the extension management commands. main.ts routes here with the arguments after
// `ext`; each subcommand is a citty command whose run returns the exit code.
import { type ArgsDef, type CommandDef, runCommand } from "citty";
import { checkArgs, UsageError } from "../args.ts";
import { commandHelp, helpFor, type HelpOut } from "../usage.ts";
import { addUrlCommand } from "./add-url.ts";
import { doctorCommand } from "./doctor.ts";
import { installCommand } from "./install.ts";
import { listCommand } from "./list.ts";
import { logsCommand } from "./logs.ts";
import { marketplaceCommand } from "./marketplace.ts";
import { disableCommand, enableCommand, removeCommand } from "./manage.ts";
import { newCommand } from "./new.ts";
import { serveCommand } from "./serve.ts";
import { testCommand } from "./test.ts";
import { trustCommand } from "./trust.ts";
import { updateCommand } from "./update.ts";
import { printable } from "../../terminal-text.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandDef<any>;

/** The subcommand table, in the order `zot ext --help` lists them. */
export const EXT_COMMANDS: Record<string, AnyCommand> = {
  list: listCommand,
  doctor: doctorCommand,
  install: installCommand,
  marketplace: marketplaceCommand,
  "add-url": addUrlCommand,
  update: updateCommand,
  remove: removeCommand,
  enable: enableCommand,
  disable: disableCommand,
  trust: trustCommand,
  logs: logsCommand,
  new: newCommand,
  test: testCommand,
  serve: serveCommand,
};

/** Commands whose last positional takes any number of words (`zot ext update a b`). */
const VARIADIC = new Set(["update"]);

/** A command's first sentence, on one row: the table stays one table however long the description. */
export function summaryOf(description: string | undefined): string {
  const flat = (description ?? "").replace(/\s+/g, " ").trim();
  return (flat.split(/(?<=\.) (?=[A-Z])/)[0] ?? "").replace(/\.$/, "");
}

export function extUsage(out: HelpOut = {}, env: Record<string, string | undefined> = process.env): string {
  const rows = Object.entries(EXT_COMMANDS).map(([name, cmd]): [string, string] =>
    [name, summaryOf((cmd.meta as { description?: string } | undefined)?.description)]);
  return helpFor({
    name: "zot ext", description: "Manage zot extensions.", usage: ["zot ext <COMMAND> [OPTIONS]"],
    sections: [{ title: "COMMANDS", rows }], footer: "Use `zot ext <command> --help` for a command's options.",
  }, out, env);
}

function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

function fail(message: string, code: number, usageHint?: string): number {
  process.stderr.write(`zot: ${printable(message)}\n${usageHint ? `${usageHint}\n` : ""}`);
  return code;
}

/** Runs `zot ext <argv…>`; returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function runExt(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) return fail("missing command", 2, extUsage(process.stderr, env));
  if (name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(extUsage(process.stdout, env));
    return 0;
  }
  const command = Object.hasOwn(EXT_COMMANDS, name) ? EXT_COMMANDS[name] : undefined;
  if (!command) return fail(`unknown command "ext ${name}"`, 2, extUsage(process.stderr, env));
  const hint = `Run \`zot ext ${name} --help\` for usage.`;
  if (wantsHelp(rest)) {
    const usage = VARIADIC.has(name) ? { usage: [`zot ext ${name} [OPTIONS] [NAME…]`] } : {};
    process.stdout.write(await commandHelp(command, "zot ext", process.stdout, env, usage));
    return 0;
  }
  try {
    checkArgs(rest, (command.args ?? {}) as ArgsDef, { variadic: VARIADIC.has(name) });
    const { result } = await runCommand(command, { rawArgs: rest });
    return typeof result === "number" ? result : 0;
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2, hint);
    // citty's own argument errors (CLIError) are usage errors too.
    if (err instanceof Error && err.name === "CLIError") return fail(err.message, 2, hint);
    return fail(err instanceof Error ? err.message : String(err), 1);
  }
}
