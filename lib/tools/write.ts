// The `write` tool: writes a whole file, creating missing parent folders, and reports the
// number of bytes written and whether the file was new.
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { requireString } from "./args.ts";
import { guardExecute, throwIfCancelled, ToolFailure } from "./failure.ts";
import { formatBytes } from "./file-kind.ts";
import { describeFsError } from "./fs-errors.ts";
import { resolveToolPath, type PathOptions } from "./tool-path.ts";
import type { Tool } from "./types.ts";

export type WriteToolOptions = PathOptions;

export function createWriteTool(options: WriteToolOptions): Tool {
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
    execute: guardExecute("write", async (args, ctx) => {
      const raw = requireString("write", args, "path", "the file to write");
      const content = requireString("write", args, "content", "the full text to write");
      const abs = resolveToolPath("write", raw, options);

      const existing = await stat(abs).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw new ToolFailure(`write: ${raw} is an existing directory; give a file path inside it instead.`);
      }
      throwIfCancelled("write", ctx.signal);
      try {
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, content, "utf8");
      } catch (err) {
        throw describeFsError("write", raw, abs, err, options.cwd);
      }
      const bytes = Buffer.byteLength(content, "utf8");
      const verb = existing ? "Overwrote" : "Created";
      return {
        content: [{ type: "text", text: `${verb} ${raw}: wrote ${bytes} bytes.` }],
        details: { path: abs, bytes, created: !existing },
      };
    }),
  };
}
