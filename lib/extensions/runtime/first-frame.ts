// What the host does with each stdout line of an extension before its hello, in one place:
// the host's handshake and `zot ext test` both ask here, so the checks never contradict zot.

/** A line before hello, as parsed: a valid frame, or a line that is not one (a banner, a bad frame). */
export type EarlyLine =
  | { frame: { type: string; name?: unknown } }
  | { invalid: { error: string; type?: string } };

export type EarlyVerdict =
  /** The hello zot waits for. */
  | { verdict: "hello" }
  /** Logged and ignored; zot loads the extension with this diagnostic. */
  | { verdict: "ignored"; why: string }
  /** zot refuses the extension. */
  | { verdict: "refused"; why: string };

export function judgeEarlyLine(line: EarlyLine, manifestName: string): EarlyVerdict {
  if ("invalid" in line) {
    // A malformed hello is a handshake error now, not a hello timeout later.
    if (line.invalid.type === "hello") return { verdict: "refused", why: `sent an invalid hello: ${line.invalid.error}` };
    return { verdict: "ignored", why: `wrote a line that is not a valid frame before hello (${line.invalid.error}); zot ignores it and logs it` };
  }
  const { frame } = line;
  if (frame.type !== "hello") return { verdict: "refused", why: `sent a ${frame.type} frame before hello (hello must be the first frame)` };
  if (frame.name !== manifestName) {
    return { verdict: "refused", why: `hello name "${String(frame.name)}" does not match the manifest name "${manifestName}"` };
  }
  return { verdict: "hello" };
}
