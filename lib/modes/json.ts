// `zot --mode json`: NDJSON events on stdout — first line `session`, then every event of the
// one event stream, last line `done` (held back until the session has ended, so events of the
// shutdown such as session_end come before it). Nothing else ever reaches stdout.
import { printable } from "../terminal-text.ts";
import { stdoutSink, writeStderr } from "../std-output.ts";
import type { RunConfigInput } from "../app/run-config.ts";
import { eventStream, failedDone, type DoneEvent } from "./event-stream.ts";
import { EXIT_FAILURE } from "./exit-code.ts";
import { runHeadless } from "./headless.ts";
import { stoppingOutput } from "./mode-output.ts";
import { ndjsonSink, sessionLine } from "./ndjson.ts";

export async function runJson(config: RunConfigInput, prompt: string | undefined, env: Record<string, string | undefined>): Promise<number> {
  const err = (text: string) => writeStderr(`${printable(text)}\n`);
  const output = stoppingOutput(stdoutSink, err, "the run was stopped");
  const sink = ndjsonSink(output);
  const stream = eventStream(sink);
  let done: DoneEvent | undefined;
  const code = await runHeadless(config, prompt, env, {
    attachStop: (stopRun) => output.stopWith(stopRun),
    showEvents(bus, info) {
      sink.write(sessionLine(info));
      bus.subscribe((event) => {
        if (event.type === "done") done = event;
        else stream.event(event);
      });
    },
    warn: (message) => err(`zot: warning: ${message}`),
    showSlash({ result, error }) {
      if (error) sink.write({ type: "ext_notify", extension: error.extension, level: "error", message: error.message });
      if (result.kind === "output") sink.write({ type: "ext_display", extension: "zot", text: result.text });
      else if (result.kind === "display" || result.kind === "insert") sink.write({ type: "ext_display", extension: result.extension, text: result.text });
      // open_panel: the host already emitted ext_panel_open.
      const failure = result.kind === "failed" ? result.message : error?.message;
      done = failure === undefined ? { type: "done", stop: "end_turn" } : failedDone(failure);
    },
    closed() {
      if (done) stream.done(done);
    },
    failedEarly(message) {
      err(`zot: ${message}`);
      stream.done(failedDone(message));
    },
  });
  // An I/O failure (host.md's exit code 1), not an interruption by the user.
  return output.closed ? EXIT_FAILURE : code;
}
