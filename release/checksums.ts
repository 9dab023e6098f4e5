// SHA256SUMS in the format `sha256sum -c` and `shasum -a 256 -c` read: `<hex>  <file name>`.
import { createHash } from "node:crypto";

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function renderSums(files: Array<{ name: string; data: Uint8Array }>): string {
  return files.map((f) => `${sha256(f.data)}  ${f.name}\n`).join("");
}

/** File name → expected hex digest. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`not a SHA256SUMS line: ${line}`);
    sums.set(m[2]!, m[1]!);
  }
  return sums;
}
