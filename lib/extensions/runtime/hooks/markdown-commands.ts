// A bundle's Markdown commands (a plugin's `commands/*.md`, the user's and a project's command
// folders) as the hook runner offers them: registered as `plugin:name` with the plain name as an
// alias (plain only outside plugins), expanded into the prompt they send (`!` lines run through
// the runner), and Claude Code's `allowed-tools` pre-approving the calls they cover while that
// prompt runs.
import type { CommandReply } from "../extension.ts";
import { callPreApproved, expandPluginCommand } from "./plugin-command-text.ts";
import { pluginCommands, type PluginCommand } from "./plugin-commands.ts";

/** How long a Markdown command's `!` command may run. */
export const COMMAND_TIMEOUT_MS = 120_000;

export interface CommandLineRun {
  output: string;
  ok: boolean;
}

export class MarkdownCommands {
  readonly list: PluginCommand[];
  /** The allowed-tools of the command whose prompt runs now, until its run ends. */
  private preApproved: { command: string; rules: string[] } | undefined;

  constructor(bundle: string, dirs: readonly string[], readonly root: string, readonly isPlugin: boolean) {
    this.list = pluginCommands(bundle, dirs);
  }

  /** What the bundle registers: a plugin's namespaced names with their plain aliases, or plain names. */
  registrations(): Array<{ name: string; description: string; alias?: true }> {
    return this.list.flatMap((c) => this.isPlugin
      ? [{ name: c.name, description: c.description }, { name: c.plain, description: c.description, alias: true as const }]
      : [{ name: c.plain, description: c.description }]);
  }

  async invoke(name: string, args: string, where: { cwd: string; run(line: string): Promise<CommandLineRun> }): Promise<CommandReply> {
    const command = this.list.find((c) => c.name === name || c.plain === name);
    if (!command) return { error: `/${name}: no such command` };
    try {
      const { prompt, allowed, model } = await expandPluginCommand(command.file, args, { root: this.root, cwd: where.cwd, run: where.run });
      // Claude Code's allowed-tools: the calls they cover run without the user's confirmation while this prompt runs.
      this.preApproved = allowed.length ? { command: name, rules: allowed } : undefined;
      return { type: "command_response", id: `plugin-${name}`, action: "prompt", prompt, ...(model ? { model } : {}) };
    } catch (err) {
      return { error: `/${name} (${command.file}): ${(err as Error).message}` };
    }
  }

  /** Why a call needs no confirmation (the running command's allowed-tools cover it), or undefined. */
  preApproves(toolName: string, toolInput: Record<string, unknown>, cwd: string): string | undefined {
    const approved = this.preApproved;
    return approved && callPreApproved(approved.rules, toolName, toolInput, cwd) ? `/${approved.command}'s allowed-tools` : undefined;
  }

  /** The command's prompt has run to its end: its allowed-tools no longer apply. */
  runEnded(): void {
    this.preApproved = undefined;
  }
}
