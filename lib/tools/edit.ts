// The `edit` tool: exact text replacements in one file. All edits are matched against the
// original text; if any edit fails (missing, ambiguous or overlapping match) nothing is written.
// CRLF files stay CRLF and a byte-order mark is kept: the model edits LF text, as read shows it.
import { diskFiles } from "./file-access.ts";
import { describeType, requireString } from "./args.ts";
import { applyEdits, EditError, formatHunks, type TextEdit } from "./edit-apply.ts";
import { diffDetails, fileDiff } from "./file-diff.ts";
import { guardExecute, throwIfCancelled, ToolFailure } from "./failure.ts";
import { looksBinary } from "./file-kind.ts";
import { describeFsError } from "./fs-errors.ts";
import { resolveToolPath, type PathOptions } from "./tool-path.ts";
import type { Tool } from "./types.ts";

export interface EditToolOptions extends PathOptions {
  /** Most diff lines in the summary returned to the model (default 40). */
  maxDiffLines?: number;
}

export function createEditTool(options: EditToolOptions): Tool {
  const maxDiffLines = options.maxDiffLines ?? 40;
  return {
    name: "edit",
    source: { kind: "builtin" },
    description:
      "Edit a file by exact text replacement. Each old_text must match exactly one place in the " +
      "current file (whitespace included) and is replaced by new_text; several edits are matched " +
      "against the original file and applied together, and if any fails nothing is written. " +
      "Read the file first and copy old_text exactly.",
    schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to edit, relative to the working directory or absolute (~ is home)." },
        edits: {
          type: "array",
          minItems: 1,
          description: "Replacements, each matching exactly one place in the original file; they must not overlap.",
          items: {
            type: "object",
            properties: {
              old_text: { type: "string", description: "Exact text to replace, including whitespace." },
              new_text: { type: "string", description: "Replacement text." },
            },
            required: ["old_text", "new_text"],
          },
        },
        old_text: { type: "string", description: "Shorthand for a single edit (use instead of edits)." },
        new_text: { type: "string", description: "Replacement for old_text in the single-edit shorthand." },
      },
      required: ["path"],
    },
    preview(args) {
      const n = Array.isArray(args.edits) ? args.edits.length : 1;
      return `${String(args.path ?? "")} (${n} edit${n === 1 ? "" : "s"})`;
    },
    async change(args) {
      const plan = await planEdit(args, options);
      return (await fileDiff(plan.raw, plan.before, plan.after)).diff;
    },
    execute: guardExecute("edit", async (args, ctx) => {
      const plan = await planEdit(args, options);
      const { raw, abs, edits, result } = plan;
      throwIfCancelled("edit", ctx.signal);
      await (options.files ?? diskFiles).writeText(abs, plan.bytes).catch((err) => { throw describeFsError("edit", raw, abs, err, options.cwd); });

      const added = result.hunks.reduce((n, h) => n + h.added.length, 0);
      const removed = result.hunks.reduce((n, h) => n + h.removed.length, 0);
      const head = `Edited ${raw}: ${edits.length} edit${edits.length === 1 ? "" : "s"}, +${added} -${removed} lines.`;
      const diff = await fileDiff(raw, plan.before, plan.after);
      return {
        content: [{ type: "text", text: `${head}\n${formatHunks(result.hunks, maxDiffLines)}` }],
        details: { path: abs, hunks: result.hunks, line_endings: plan.crlf ? "crlf" : "lf", ...diffDetails(diff) },
      };
    }),
  };
}

interface EditPlan {
  raw: string;
  abs: string;
  edits: TextEdit[];
  result: ReturnType<typeof applyEdits>;
  /** The file's text before and after, with LF line ends (what the model and the diff see). */
  before: string;
  after: string;
  crlf: boolean;
  /** What goes to disk: the original line ends and byte-order mark kept. */
  bytes: string;
}

/** Reads the file and applies the edits in memory; throws ToolFailure when they cannot apply. */
async function planEdit(args: Record<string, unknown>, options: EditToolOptions): Promise<EditPlan> {
  const raw = requireString("edit", args, "path", "the file to edit");
  const edits = readEdits(args);
  const abs = resolveToolPath("edit", raw, options);

  const bytes = await (options.files ?? diskFiles).read(abs).catch((err) => { throw describeFsError("edit", raw, abs, err, options.cwd); });
  if (looksBinary(bytes)) throw new ToolFailure(`edit: ${raw} is a binary file; edit only changes text files.`);
  let text = bytes.toString("utf8");
  const bom = text.startsWith("\uFEFF");
  if (bom) text = text.slice(1);
  const crlf = usesCrlfOnly(text);
  if (crlf) text = text.replace(/\r\n/g, "\n");
  const normalized = crlf ? edits.map((e) => ({ oldText: toLf(e.oldText), newText: toLf(e.newText) })) : edits;

  let result: ReturnType<typeof applyEdits>;
  try {
    result = applyEdits(text, normalized, raw);
  } catch (err) {
    if (err instanceof EditError) throw new ToolFailure(`edit: ${err.message}`);
    throw err;
  }
  if (result.text === text) {
    throw new ToolFailure(`edit: the edits leave ${raw} unchanged (new_text equals old_text). Nothing was written.`);
  }
  let out = crlf ? result.text.replace(/\n/g, "\r\n") : result.text;
  if (bom) out = `\uFEFF${out}`;
  return { raw, abs, edits, result, before: text, after: result.text, crlf, bytes: out };
}

/** `edits: [{old_text, new_text}]`, or the single-pair shorthand `old_text`/`new_text`. */
function readEdits(args: Record<string, unknown>): TextEdit[] {
  if (args.edits !== undefined) {
    if (!Array.isArray(args.edits) || args.edits.length === 0) {
      throw new ToolFailure("edit: `edits` must be a non-empty array of {old_text, new_text} objects.");
    }
    if (args.old_text !== undefined) {
      throw new ToolFailure("edit: give either `edits` or the single `old_text`/`new_text` pair, not both.");
    }
    return args.edits.map((e, i) => {
      const item = e as Record<string, unknown>;
      const where = `edit ${i + 1} of ${(args.edits as unknown[]).length}`;
      if (typeof e !== "object" || e === null || Array.isArray(e)) {
        throw new ToolFailure(`edit: ${where} must be an object {old_text, new_text}; got ${describeType(e)}.`);
      }
      if (typeof item.old_text !== "string" || typeof item.new_text !== "string") {
        throw new ToolFailure(`edit: ${where} needs string old_text and new_text fields.`);
      }
      return { oldText: item.old_text, newText: item.new_text };
    });
  }
  if (typeof args.old_text === "string" && typeof args.new_text === "string") {
    return [{ oldText: args.old_text, newText: args.new_text }];
  }
  throw new ToolFailure("edit: give `edits: [{old_text, new_text}, …]` or a single `old_text` with `new_text` (both strings).");
}

/** True when the text has line breaks and every one of them is CRLF. */
function usesCrlfOnly(text: string): boolean {
  const lf = (text.match(/\n/g) ?? []).length;
  return lf > 0 && (text.match(/\r\n/g) ?? []).length === lf;
}

function toLf(s: string): string {
  return s.replace(/\r\n/g, "\n");
}
