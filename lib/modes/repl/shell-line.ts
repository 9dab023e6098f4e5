// `!command` in the REPL: the user's own shell command, run now with the bash tool's rules
// (working directory, timeout, output tail, nothing left running), not through the model or its
// confirmations. Its output is shown, and goes to the model with the next prompt.
import { createBashTool } from "../../tools/bash.ts";
import type { ToolOutcome } from "../../tools/types.ts";

/** A `!command` line's command, or undefined for any other line (`!` alone is a prompt). */
export function shellCommandOf(line: string): string | undefined {
  const match = /^!\s*(\S[\s\S]*)$/.exec(line.trim());
  return match ? match[1]!.trim() : undefined;
}

export interface ShellLineResult {
  /** What the user sees (the tool's text). */
  output: string;
  failed: boolean;
  /** What the model gets with the next prompt. */
  context: string;
}

export async function runShellLine(command: string, cwd: string, signal: AbortSignal,
  pathDirs?: () => readonly string[]): Promise<ShellLineResult> {
  const bash = createBashTool({ cwd, ...(pathDirs ? { pathDirs } : {}) });
  const outcome: ToolOutcome = await bash.execute({ command }, { cwd, signal });
  const output = outcome.content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("\n").trimEnd();
  const failed = outcome.isError === true;
  return { output, failed, context: `The user ran a shell command:\n<shell command="${command.replaceAll('"', "&quot;")}">\n${output}\n</shell>` };
}

/**
 * The REPL's `!` lines: one runs at a time (Ctrl+C stops it); their outputs wait for the next
 * prompt, which takes them to the model.
 */
export class ShellLines {
  private running: AbortController | undefined;
  private pending: string[] = [];

  constructor(private readonly options: { cwd: () => string; pathDirs?: () => readonly string[]; show(result: ShellLineResult): void }) {}

  get active(): boolean {
    return this.running !== undefined;
  }

  stop(): void {
    this.running?.abort();
  }

  async run(command: string): Promise<void> {
    if (this.running) return;
    this.running = new AbortController();
    try {
      const result = await runShellLine(command, this.options.cwd(), this.running.signal, this.options.pathDirs);
      this.pending.push(result.context);
      this.options.show(result);
    } finally {
      this.running = undefined;
    }
  }

  /** What the model gets with the next prompt (taken once). */
  take(): string[] {
    return this.pending.splice(0);
  }
}
