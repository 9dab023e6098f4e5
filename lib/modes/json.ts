// `zot --mode json`: NDJSON events on stdout — first line `session`, then every event of the
// one event stream, last line `done`. Nothing else ever reaches stdout.
import { PROTOCOL_VERSION } from "../protocol/limits.ts";
import type { RootOptions } from "../cli/root-args.ts";
import { ZOT_VERSION } from "../version.ts";
import { runHeadless } from "./headless.ts";
import { ndjsonSink } from "./ndjson.ts";

export function runJson(options: RootOptions, env: Record<string, string | undefined>): Promise<number> {
  const sink = ndjsonSink();
  const err = (text: string) => process.stderr.write(`${text}\n`);
  let sawDone = false;
  return runHeadless(options, env, {
    onBus(bus, info) {
      sink.write({ type: "session", ...info, zot_version: ZOT_VERSION, protocol_version: PROTOCOL_VERSION });
      bus.subscribe((event) => {
        if (event.type === "done") sawDone = true;
        sink.write(event);
      });
    },
    warn: (message) => err(`zot: warning: ${message}`),
    showSlash({ result, error }) {
      if (error) sink.write({ type: "ext_notify", extension: error.extension, level: "error", message: error.message });
      if (result.kind === "output") sink.write({ type: "ext_display", extension: "zot", text: result.text });
      else if (result.kind === "display" || result.kind === "insert") sink.write({ type: "ext_display", extension: result.extension, text: result.text });
      else if (result.kind === "failed") sink.write({ type: "error", message: result.message });
      // open_panel: the host already emitted ext_panel_open.
      const failed = result.kind === "failed" || error !== undefined;
      sink.write({ type: "done", stop: failed ? "error" : "end_turn", ...(failed ? { error: error?.message ?? (result as { message: string }).message } : {}) });
      sawDone = true;
    },
    finished() {
      // The session already emitted `done` for the run.
    },
    failedEarly(message) {
      err(`zot: ${message}`);
      if (!sawDone) sink.write({ type: "done", stop: "error", error: message });
    },
  });
}
