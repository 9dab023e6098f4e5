// What print and json modes share: build the runtime, run one prompt or slash command, map
// Ctrl+C to an abort, and shut down cleanly. Each mode supplies how things are shown.
import type { RunResult } from "../agent/contracts/loop-options.ts";
import type { Frontend } from "../app/frontend.ts";
import { createRuntime, type Runtime } from "../app/runtime.ts";
import { parseSlash, type SlashOutcome } from "../app/slash.ts";
import type { RunConfigInput } from "../app/run-config.ts";
import { UsageError } from "../errors.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, exitCodeOf } from "./exit-code.ts";
import { literalText, unknownCommand } from "../app/unknown-command.ts";
import { attachStdin, readPipedStdin } from "./input.ts";

/** A headless mode's frontend (its events and warnings), and how it shows the one prompt's outcome. */
export interface HeadlessView extends Frontend {
  /** A slash command's outcome other than a run (a run is reported through its events). */
  showSlash(outcome: SlashOutcome): void;
  /** The prompt's run finished (its `done` event is on the bus too). */
  finished?(result: RunResult): void;
  /** Everything is shut down (the session ended, extensions stopped). */
  closed?(): void;
  /** Setup failed before any run (bad settings, missing key, broken session file). */
  failedEarly(message: string): void;
  /** Once the runtime exists: how the view stops the run as Ctrl+C does (its output's reader went away). */
  attachStop?(stop: () => void): void;
}

export async function runHeadless(config: RunConfigInput, argPrompt: string | undefined, env: Record<string, string | undefined>,
  view: HeadlessView): Promise<number> {
  const prompt = attachStdin(argPrompt, await readPipedStdin());
  if (prompt === undefined || prompt.trim() === "") throw new UsageError("a prompt is required in this mode (an argument, or text on stdin)");

  let rt: Runtime;
  try {
    // A prompt that cannot be a slash command reaches the model first thing: warm the provider up meanwhile.
    rt = await createRuntime(config, { frontend: view, env, interactive: false, warmProvider: parseSlash(prompt) === undefined });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    view.failedEarly((err as Error).message);
    return EXIT_FAILURE;
  }

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    rt.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  view.attachStop?.(onSignal);
  try {
    let code = EXIT_OK;
    const unknown = interrupted ? undefined : unknownCommand(rt, prompt, false);
    if (unknown) {
      view.failedEarly(unknown);
      code = EXIT_USAGE;
    } else if (interrupted) {
      // Stopped before the prompt started (output closed while starting up): nothing runs.
    } else if (rt.isCommandLine(prompt)) {
      const outcome = await rt.slash(prompt.trim(), { interactive: false });
      if (outcome.result.kind === "run") {
        // The command ran; what it said on the way (an unknown model it asked for) is a warning.
        if (outcome.error) view.warn(`[${outcome.error.extension}] ${outcome.error.message}`);
        const result = await outcome.result.run;
        view.finished?.(result);
        code = exitCodeOf(result);
      } else {
        view.showSlash(outcome);
        if (outcome.result.kind === "failed" || outcome.error) code = EXIT_FAILURE;
      }
    } else {
      const result = await rt.prompt(literalText(prompt) ?? prompt);
      view.finished?.(result);
      code = exitCodeOf(result);
    }
    await rt.close({ abort: interrupted });
    view.closed?.();
    return interrupted ? EXIT_INTERRUPTED : code;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
