// Where bash runs its command: zot's own shell (bash.ts), or a terminal someone else owns and
// shows (in `zot acp`, the editor's). The bash tool keeps its rules either way: the timeout, the
// cancel, the output tail the model gets, the exit code in the result.

export interface TerminalRequest {
  command: string;
  cwd: string;
  /** Variables to set beyond the terminal's own (a plugin's bin/ on PATH). */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output kept at most (the terminal may drop the start of longer output). */
  outputByteLimit: number;
  /** The tool call this runs for (the editor shows its terminal in that call). */
  toolId?: string;
}

export interface TerminalResult {
  output: string;
  /** The terminal dropped the start of the output. */
  truncated: boolean;
  exitCode: number | null;
  signal: string | null;
  /** Why zot stopped it, when it did. */
  stop?: "timed_out" | "cancelled";
}

export interface CommandTerminal {
  /** Runs `command` (bash syntax) to its end, or kills it at the timeout or the abort; never leaves it running. */
  run(request: TerminalRequest): Promise<TerminalResult>;
}
