// A yes/no question on stderr (stdout may be piped); only asked when stdin is a terminal.
import { createInterface } from "node:readline/promises";

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
