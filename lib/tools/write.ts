// The `write` tool: writes a whole file, creating missing parent folders, and reports the
// number of bytes written and whether the file was new.
import { stat } from "node:fs/promises";
import { diskFiles, type FileAccess } from "./file-access.ts";
import { requireString } from "./args.ts";
import { guardExecute, throwIfCancelled, ToolFailure } from "./failure.ts";
import { diffDetails, fileDiff } from "./file-diff.ts";
import { formatBytes, looksBinary } from "./file-kind.ts";
import { describeFsError } from "./fs-errors.ts";
import { resolveToolPath, type PathOptions } from "./tool-path.ts";
import type { Tool } from "./types.ts";

export type WriteToolOptions = PathOptions;

export function createWriteTool(options: WriteToolOptions): Tool {
  const files = options.files ?? diskFiles;
  return {
    name: "write",
    source: { kind: "builtin" },
    description:
      "Write a file with the given content, replacing it if it exists and creating missing parent " +
      "folders. Use edit for changes to part of an existing file.",
    schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to write, relative to the working directory or absolute (~ is home)." },
        content: { type: "string", description: "The complete new content of the file." },
      },
      required: ["path", "content"],
    },
    preview(args) {
      const content = typeof args.content === "string" ? args.content : "";
      return `${String(args.path ?? "")} (${formatBytes(Buffer.byteLength(content, "utf8"))})`;
    },
    async change(args) {
      const raw = requireString("write", args, "path", "the file to write");
      const content = requireString("write", args, "content", "the full text to write");
      const abs = resolveToolPath("write", raw, options);
      return (await fileDiff(raw, await previousText(abs, files), toLf(content))).diff;
    },
    execute: guardExecute("write", async (args, ctx) => {
      const raw = requireString("write", args, "path", "the file to write");
      const content = requireString("write", args, "content", "the full text to write");
      const abs = resolveToolPath("write", raw, options);

      const existing = await stat(abs).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw new ToolFailure(`write: ${raw} is an existing directory; give a file path inside it instead.`);
      }
      const before = existing ? await previousText(abs, files) : "";
      throwIfCancelled("write", ctx.signal);
      try {
        await files.writeText(abs, content);
      } catch (err) {
        throw describeFsError("write", raw, abs, err, options.cwd);
      }
      const bytes = Buffer.byteLength(content, "utf8");
      const verb = existing ? "Overwrote" : "Created";
      return {
        content: [{ type: "text", text: `${verb} ${raw}: wrote ${bytes} bytes.` }],
        details: { path: abs, bytes, created: !existing, ...diffDetails(await fileDiff(raw, before, toLf(content))) },
      };
    }),
  };
}

/** The text a write replaces, LF line ends; nothing for a missing, unreadable or binary file. */
async function previousText(abs: string, files: FileAccess): Promise<string> {
  const bytes = await files.read(abs).catch(() => undefined);
  if (!bytes || looksBinary(bytes)) return "";
  return toLf(bytes.toString("utf8").replace(/^\uFEFF/, ""));
}

function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}
