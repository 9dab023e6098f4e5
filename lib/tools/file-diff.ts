// The unified diff of a file change, for the user and for extensions: what `edit` and `write`
// did (their result details) and what they are about to do (shown before a confirmation).
// jsdiff is loaded on first use so runs that change no file never load it.
import { Buffer } from "node:buffer";

/** Unchanged lines kept around each change. */
export const DIFF_CONTEXT_LINES = 3;

/** Largest diff kept in a result's details; a longer one is cut at a line and marked. */
export const DIFF_MAX_BYTES = 64 * 1024;

export interface FileDiff {
  /** `--- path` / `+++ path` headers, then `@@` hunks; empty when nothing changed. */
  diff: string;
  /** True when the diff was cut to DIFF_MAX_BYTES. */
  truncated: boolean;
}

/** The unified diff from `before` to `after` (LF text); a new file is diffed from nothing. */
export async function fileDiff(path: string, before: string, after: string, maxBytes = DIFF_MAX_BYTES): Promise<FileDiff> {
  if (before === after) return { diff: "", truncated: false };
  const { structuredPatch } = await import("diff");
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: DIFF_CONTEXT_LINES });
  const lines = [`--- ${path}`, `+++ ${path}`];
  for (const h of patch.hunks) {
    lines.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
  }
  return cutAtLine(`${lines.join("\n")}\n`, maxBytes);
}

/** The details fields a file-changing tool adds to its result. */
export function diffDetails(d: FileDiff): Record<string, unknown> {
  if (d.diff === "") return {};
  return d.truncated ? { diff: d.diff, diff_truncated: true } : { diff: d.diff };
}

/** A hunk range; an empty one names the line before it, as diff(1) writes it (`-0,0` for a new file). */
function range(start: number, count: number): string {
  return `${count === 0 ? Math.max(0, start - 1) : start},${count}`;
}

function cutAtLine(text: string, maxBytes: number): FileDiff {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return { diff: text, truncated: false };
  let out = "";
  let bytes = 0;
  for (const line of text.split("\n")) {
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + size > maxBytes) break;
    out += `${line}\n`;
    bytes += size;
  }
  return { diff: out, truncated: true };
}
