// Reading a secret from the terminal without echoing it: raw mode, nothing written back but the
// prompt and a final newline. Escape sequences (arrow keys, bracketed-paste markers) are dropped.

/** The typed line, or undefined when the user gave up (Ctrl+C, Ctrl+D on an empty line, end of input). */
export function readHidden(prompt: string, input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr): Promise<string | undefined> {
  output.write(prompt);
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve) => {
    let text = "";
    const finish = (value: string | undefined) => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.setRawMode(wasRaw);
      input.pause();
      output.write("\n");
      resolve(value);
    };
    const onEnd = () => finish(undefined);
    const onData = (chunk: Buffer | string) => {
      const data = String(chunk).replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/\x1b./g, "");
      for (const ch of data) {
        if (ch === "\r" || ch === "\n") return finish(text);
        if (ch === "\x03") return finish(undefined);
        if (ch === "\x04") {
          if (text === "") return finish(undefined);
          continue;
        }
        if (ch === "\x7f" || ch === "\b") text = [...text].slice(0, -1).join("");
        else if (ch === "\x15") text = ""; // Ctrl+U
        else if (ch >= " ") text += ch;
      }
    };
    input.on("data", onData);
    input.on("end", onEnd);
  });
}
