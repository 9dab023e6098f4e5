// The prompt a headless run starts with: the positional prompt, plus piped stdin when stdin is
// not a TTY (`git diff | zot -p "review this"`).
import { readFileSync } from "node:fs";
import { fdKind } from "../std-output.ts";

/**
 * What fd 0 holds when that is known without a stream: a terminal or /dev/null hold nothing, a
 * redirected file its text (read at once). `undefined` for a pipe or anything else. Building
 * `process.stdin` costs a one-shot run more than all of this, and so does loading node:tty (it
 * brings the fs and stream modules), so that waits for a character device other than /dev/null.
 */
async function stdinWithoutStream(): Promise<{ text: string | undefined } | undefined> {
  const kind = fdKind(0);
  if (kind === "file") {
    try {
      return { text: readFileSync(0, "utf8") };
    } catch {
      return undefined; // unreadable: the stream decides
    }
  }
  if (kind === "null") return { text: undefined };
  if (kind === "terminal") {
    const { isatty } = await import("node:tty");
    if (isatty(0)) return { text: undefined };
  }
  return undefined;
}

export async function readPipedStdin(stdin?: NodeJS.ReadStream): Promise<string | undefined> {
  if (stdin === undefined) {
    const known = await stdinWithoutStream();
    if (known) return known.text?.trim() === "" ? undefined : known.text;
    stdin = process.stdin;
  }
  if (stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.trim() === "" ? undefined : text;
}

export function attachStdin(prompt: string | undefined, piped: string | undefined): string | undefined {
  if (piped === undefined) return prompt;
  if (prompt === undefined || prompt.trim() === "") return piped;
  return `${prompt}\n\n<stdin>\n${piped.replace(/\n$/, "")}\n</stdin>`;
}
