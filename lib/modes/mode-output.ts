// Standard output of the modes that write for a program (json, rpc, print, a subagent child). A
// reader that goes away (`zot --mode json … | head -1`) makes writes fail with EPIPE; that ends the
// output (later writes are dropped) and tells the mode once, which stops the run, instead of zot
// dying of an unhandled stream error mid-run.
import type { TextSink } from "../std-output.ts";

export interface ModeOutput {
  write(text: string): void;
  /** A write failed: nothing more reaches the reader. */
  readonly closed: boolean;
}

/** Why output stopped, for the one `zot: …` line on stderr. */
export function outputClosedMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "EPIPE" ? "stdout was closed (its reader went away)"
    : `cannot write to stdout (${(err as Error)?.message ?? String(err)})`;
}

export function modeOutput(stream: TextSink, onClosed: (err: unknown) => void): ModeOutput {
  let closed = false;
  const close = (err: unknown) => {
    if (closed) return;
    closed = true;
    onClosed(err);
  };
  // A stream reports a failed pipe write as an 'error' event (Bun at times by throwing from
  // write()); a direct write to the fd throws.
  stream.on("error", close);
  return {
    get closed() {
      return closed;
    },
    write(text) {
      if (closed) return;
      try {
        stream.write(text);
      } catch (err) {
        close(err);
      }
    },
  };
}

/** A ModeOutput whose closing stops the work attached with `stopWith`, saying so in one line. */
export interface StoppingOutput extends ModeOutput {
  /** The work to stop; attached after the output closed (a run starts only once the runtime exists), it is stopped at once. */
  stopWith(stop: () => void): void;
}

/** `stopped` ends the line said on stderr: "the run was stopped", "rpc mode ends". */
export function stoppingOutput(stream: TextSink, say: (line: string) => void, stopped: string): StoppingOutput {
  let stop = () => {};
  const output = modeOutput(stream, (reason) => {
    say(`zot: ${outputClosedMessage(reason)}; ${stopped}`);
    stop();
  });
  return {
    write: (text) => output.write(text),
    get closed() {
      return output.closed;
    },
    stopWith(work) {
      stop = work;
      if (output.closed) work();
    },
  };
}
