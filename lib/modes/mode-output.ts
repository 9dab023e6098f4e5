// Standard output of the modes that write for a program (json, rpc, print, a subagent child). A
// reader that goes away (`zot --mode json … | head -1`) makes writes fail with EPIPE; that ends the
// output (later writes are dropped) and tells the mode once, which stops the run, instead of zot
// dying of an unhandled stream error mid-run.

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

export function modeOutput(stream: NodeJS.WritableStream, onClosed: (err: unknown) => void): ModeOutput {
  let closed = false;
  const close = (err: unknown) => {
    if (closed) return;
    closed = true;
    onClosed(err);
  };
  // Node reports a failed pipe write as an 'error' event; without a listener it is fatal.
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
