// Asks the terminal for its background colour (OSC 11) before the REPL reads keys, so the default
// theme can follow a light or a dark terminal. A terminal that does not answer within the wait
// costs that wait once; anything else typed meanwhile is handed back to the key reader.

/** `rgb:RRRR/GGGG/BBBB` (1–4 hex digits each) in an OSC 11 answer → dark or light; undefined when it is not one. */
export function backgroundOfAnswer(answer: string): "dark" | "light" | undefined {
  const m = /\x1b\]11;rgb:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\x07|\x1b\\)/i.exec(answer);
  if (!m) return undefined;
  const [r, g, b] = m.slice(1, 4).map((h) => parseInt(h!, 16) / (16 ** h!.length - 1));
  // Relative luminance (sRGB weights): above the middle is a light background.
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.5 ? "light" : "dark";
}

const ANSWER = /\x1b\]11;[^\x07\x1b]*(?:\x07|\x1b\\)/;

/** The terminal's background, asked on `output` and read from `input` (in raw mode), or undefined after `waitMs`. */
export function queryBackground(input: NodeJS.ReadStream, output: NodeJS.WriteStream, waitMs: number): Promise<"dark" | "light" | undefined> {
  return new Promise((resolve) => {
    let got = "";
    const finish = (found: "dark" | "light" | undefined) => {
      clearTimeout(timer);
      input.off("data", onData);
      input.pause();
      // Keys typed while waiting are not lost: what is not the answer goes back to the reader.
      const rest = got.replace(ANSWER, "");
      if (rest !== "") input.unshift(Buffer.from(rest, "latin1"));
      resolve(found);
    };
    const onData = (chunk: Buffer) => {
      got += chunk.toString("latin1");
      if (ANSWER.test(got)) finish(backgroundOfAnswer(got));
    };
    const timer = setTimeout(() => finish(undefined), waitMs);
    input.on("data", onData);
    input.resume();
    output.write("\x1b]11;?\x1b\\");
  });
}
