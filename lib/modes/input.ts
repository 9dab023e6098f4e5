// The prompt a headless run starts with: the positional prompt, plus piped stdin when stdin is
// not a TTY (`git diff | zot -p "review this"`).
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
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
