// The `read` tool. Text comes back plain — no line numbers — so the model can copy it verbatim
// into edit's `old_text`; a closing note in brackets states which lines were shown and the
// `offset` to continue from. Images (png, jpeg, gif, webp, by magic bytes) come back as image
// blocks; other binary files are refused.
import { stat } from "node:fs/promises";
import { diskFiles } from "./file-access.ts";
import { optionalPositiveInt, requireString } from "./args.ts";
import { cutToBytes, detectImage, formatBytes, looksBinary } from "./file-kind.ts";
import { guardExecute, ToolFailure } from "./failure.ts";
import { describeFsError } from "./fs-errors.ts";
import { resolveToolPath, type PathOptions } from "./tool-path.ts";
import type { Tool, ToolOutcome } from "./types.ts";

export interface ReadToolOptions extends PathOptions {
  /** Most lines returned by one call (default 2000). */
  maxLines?: number;
  /** Most bytes of text returned by one call (default 50 KiB). */
  maxBytes?: number;
  /** Largest image returned as an image block (default 5 MiB, the common provider limit). */
  maxImageBytes?: number;
  /** Largest file read at all; bigger ones are refused with a pointer to bash (default 64 MiB). */
  maxFileBytes?: number;
}

export const READ_DEFAULTS = { maxLines: 2000, maxBytes: 50 * 1024, maxImageBytes: 5 * 1024 * 1024, maxFileBytes: 64 * 1024 * 1024 };

export function createReadTool(options: ReadToolOptions): Tool {
  const maxLines = options.maxLines ?? READ_DEFAULTS.maxLines;
  const maxBytes = options.maxBytes ?? READ_DEFAULTS.maxBytes;
  const maxImageBytes = options.maxImageBytes ?? READ_DEFAULTS.maxImageBytes;
  const maxFileBytes = options.maxFileBytes ?? READ_DEFAULTS.maxFileBytes;
  return {
    name: "read",
    source: { kind: "builtin" },
    description:
      `Read a file. Text is returned exactly as stored (no line numbers), at most ${maxLines} lines or ` +
      `${formatBytes(maxBytes)} per call; a note at the end tells you the offset to continue from. ` +
      "Use offset (1-based line) and limit to read a part of a large file. PNG, JPEG, GIF and WebP " +
      "images are returned as images. Relative paths resolve against the working directory.",
    schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to read, relative to the working directory or absolute (~ is home)." },
        offset: { type: "integer", minimum: 1, description: "First line to return, 1-based (default 1)." },
        limit: { type: "integer", minimum: 1, description: "Most lines to return." },
      },
      required: ["path"],
    },
    preview(args) {
      const path = String(args.path ?? "");
      const offset = Number(args.offset) || undefined;
      const limit = Number(args.limit) || undefined;
      if (!offset && !limit) return path;
      const from = offset ?? 1;
      return `${path}:${from}${limit ? `-${from + limit - 1}` : "-"}`;
    },
    execute: guardExecute("read", async (args) => {
      const raw = requireString("read", args, "path", "the file to read");
      const offset = optionalPositiveInt("read", args, "offset", "the 1-based line to start at") ?? 1;
      const limit = optionalPositiveInt("read", args, "limit", "how many lines to return");
      const abs = resolveToolPath("read", raw, options);

      const info = await stat(abs).catch((err) => { throw describeFsError("read", raw, abs, err, options.cwd); });
      if (info.isDirectory()) {
        throw new ToolFailure(`read: ${raw} is a directory, not a file. List it with bash (ls ${shellQuote(raw)}) and read a file inside it.`);
      }
      if (info.size > maxFileBytes) {
        // The whole file is read to count lines; past this size that costs too much memory.
        throw new ToolFailure(
          `read: ${raw} is ${formatBytes(info.size)}, over the ${formatBytes(maxFileBytes)} read limit. ` +
            `Look at parts of it with bash instead, for example sed -n '1000,1100p' ${shellQuote(raw)}, head, tail or grep.`,
        );
      }
      const bytes = await (options.files ?? diskFiles).read(abs).catch((err) => { throw describeFsError("read", raw, abs, err, options.cwd); });

      const mime = detectImage(bytes);
      if (mime) {
        if (bytes.length > maxImageBytes) {
          throw new ToolFailure(
            `read: ${raw} is a ${mime} image of ${formatBytes(bytes.length)}, over the ${formatBytes(maxImageBytes)} ` +
              "image limit. Make a smaller copy first (for example with ImageMagick's convert via bash) and read that.",
          );
        }
        return {
          content: [
            { type: "text", text: `Read image ${raw} (${mime}, ${formatBytes(bytes.length)}).` },
            { type: "image", mime_type: mime, data: bytes.toString("base64") },
          ],
          details: { path: abs, mime_type: mime, bytes: bytes.length },
        };
      }
      if (looksBinary(bytes)) {
        throw new ToolFailure(
          `read: ${raw} is a binary file (${formatBytes(bytes.length)}) and not an image read can show ` +
            "(png, jpeg, gif, webp). Inspect it with bash instead, for example `file`, `xxd | head` or `strings`.",
        );
      }
      return readText(raw, abs, bytes, offset, limit, maxLines, maxBytes);
    }),
  };
}

function readText(
  raw: string, abs: string, bytes: Buffer, offset: number, limit: number | undefined, maxLines: number, maxBytes: number,
): ToolOutcome {
  let text = bytes.toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop(); // the final newline ends a line, it does not start one
  const total = lines.length;
  if (total === 0) return { content: [{ type: "text", text: `[${raw} is empty.]` }], details: { path: abs, total_lines: 0 } };
  if (offset > total) {
    throw new ToolFailure(`read: offset ${offset} is past the end of ${raw}, which has ${total} line${total === 1 ? "" : "s"}. Use an offset from 1 to ${total}.`);
  }

  const start = offset - 1;
  const wanted = Math.min(limit ?? Infinity, maxLines, total - start);
  const shown: string[] = [];
  let used = 0;
  let hitByteCap = false;
  for (let i = start; i < start + wanted; i++) {
    const line = lines[i]!;
    const cost = Buffer.byteLength(line, "utf8") + (shown.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) { hitByteCap = true; break; }
    shown.push(line);
    used += cost;
  }

  const details = { path: abs, total_lines: total, first_line: offset, last_line: offset + shown.length - 1 };
  if (shown.length === 0) {
    // A single line longer than the whole byte budget: show its start and say how to get the rest.
    const head = cutToBytes(lines[start]!, maxBytes);
    const next = offset + 1 <= total ? ` Continue with offset=${offset + 1} for the following lines.` : "";
    const note = `[Line ${offset} of ${raw} is ${formatBytes(Buffer.byteLength(lines[start]!, "utf8"))}, longer than the ${formatBytes(maxBytes)} ` +
      `output limit; showing its first ${formatBytes(Buffer.byteLength(head, "utf8"))}. Use bash (for example cut -c or head -c) to see the rest of it.${next}]`;
    return { content: [{ type: "text", text: `${head}\n\n${note}` }], details: { ...details, last_line: offset, truncated: true } };
  }

  const last = offset + shown.length - 1;
  let body = shown.join("\n");
  if (last < total) {
    const why = hitByteCap ? ` (the ${formatBytes(maxBytes)} output limit was reached)` : shown.length === maxLines && (limit ?? Infinity) > maxLines ? ` (at most ${maxLines} lines per call)` : "";
    body += `\n\n[Showing lines ${offset}-${last} of ${total}${why}. Use offset=${last + 1} to continue.]`;
  }
  return { content: [{ type: "text", text: body }], details: { ...details, truncated: last < total } };
}

function shellQuote(s: string): string {
  return /^[\w./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
