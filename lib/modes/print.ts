// `zot -p`: only the final assistant text on stdout (nothing when the run fails); notes,
// warnings and errors on stderr, extension notes prefixed with the extension's name.
import type { RunConfigInput } from "../app/run-config.ts";
import { EXIT_FAILURE } from "./exit-code.ts";
import { runHeadless } from "./headless.ts";
import { modeOutput, outputClosedMessage } from "./mode-output.ts";
import { printable } from "../terminal-text.ts";
import { fdKind, stdoutSink, writeStderr } from "../std-output.ts";
import { renderPanelText, stderrNoteLine } from "./notes.ts";

export async function runPrint(config: RunConfigInput, prompt: string | undefined, env: Record<string, string | undefined>): Promise<number> {
  // What reaches a terminal is text, whatever an extension (or the model) put in it; a pipe gets it as it is.
  const err = (text: string) => writeStderr(`${printable(text)}\n`);
  const output = modeOutput(stdoutSink, (reason) => err(`zot: ${outputClosedMessage(reason)}`));
  const toTerminal = fdKind(1) === "terminal";
  const shown = (text: string) => (toTerminal ? printable(text) : text);
  const out = (text: string) => output.write(shown(text.endsWith("\n") ? text : `${text}\n`));
  const code = await runHeadless(config, prompt, env, {
    showEvents(bus) {
      bus.subscribe((event) => {
        const line = stderrNoteLine(event);
        if (line) err(line);
      });
    },
    warn: (message) => err(`zot: warning: ${message}`),
    showSlash({ result, error }) {
      if (error) err(`[${error.extension}] error: ${error.message}`);
      // A command's output is its result: print it on stdout so commands are scriptable.
      if (result.kind === "output" || result.kind === "display" || result.kind === "insert") out(result.text);
      else if (result.kind === "panel") out(renderPanelText(result.panel));
      else if (result.kind === "failed") err(`zot: ${result.message}`);
    },
    finished(result) {
      if (result.stop === "error" || result.stop === "aborted" || result.stop === "blocked") {
        if (result.stop === "blocked") err(`zot: blocked: ${result.error ?? "the turn was blocked"}`);
        else if (result.stop === "error") err(`zot: ${result.error ?? "the run failed"}`);
        return;
      }
      if (result.text !== "") out(result.text);
    },
    failedEarly: (message) => err(`zot: ${message}`),
  });
  return output.closed ? EXIT_FAILURE : code;
}
