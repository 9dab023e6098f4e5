// What a slash command line did, in every mode's terms: the runtime's `slash` returns it and
// each mode decides how to show it (stdout in print mode, events in json/rpc, the REPL's screen).
import type { RunResult } from "../agent/contracts/loop-options.ts";
import type { PanelContent } from "../protocol/index.ts";

export type SlashResult =
  /** `reload`: set by /reload-ext, the load failures of the new set (the REPL shows a status). */
  /** `input`: text the REPL puts back in its input line (the prompt a /fork left out). */
  | { kind: "output"; text: string; reload?: { failures: Array<{ extension: string; message: string }> }; input?: string }
  | { kind: "run"; run: Promise<RunResult> }
  | { kind: "display"; extension: string; text: string }
  | { kind: "insert"; extension: string; text: string }
  | { kind: "panel"; extension: string; panel: PanelContent }
  | { kind: "noop" }
  | { kind: "exit" }
  | { kind: "failed"; message: string };

export interface SlashOutcome {
  result: SlashResult;
  /** A command response's `error`, shown as a red status line whatever the action. */
  error?: { extension: string; message: string };
}

/** How the mode that runs a command line shows its results. */
export interface SlashOptions {
  /** The REPL: interactive-only commands (/exit, /login, /theme) are offered. */
  interactive: boolean;
  /** The screen's width, for /tools lines (absent: not cut). */
  columns?: number;
}
