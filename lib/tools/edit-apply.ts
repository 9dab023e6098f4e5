// Pure text logic of the edit tool: locate every edit in the original text, refuse missing,
// ambiguous and overlapping matches, apply them all at once, and summarise the change.

/** One replacement, read from the tool's `{old_text, new_text}` arguments. */
export interface TextEdit {
  oldText: string;
  newText: string;
}

/** One applied edit, trimmed to the lines that really changed. */
export interface EditHunk {
  /** 1-based edit number as the model numbered them. */
  edit: number;
  /** 1-based line of the first changed line in the original text. */
  line: number;
  removed: string[];
  added: string[];
}

/** Thrown with a message addressed to the model; nothing has been applied. */
export class EditError extends Error {}

interface Located { edit: number; start: number; end: number; newText: string }

/**
 * Applies `edits` to `original`. Every `oldText` is matched against the original text (not
 * against the result of earlier edits) and must occur exactly once; matches must not overlap.
 */
export function applyEdits(original: string, edits: TextEdit[], label: string): { text: string; hunks: EditHunk[] } {
  const located: Located[] = edits.map((e, i) => locate(original, e, i + 1, edits.length, label));
  const ordered = [...located].sort((a, b) => a.start - b.start);
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1]!;
    const cur = ordered[i]!;
    if (cur.start < prev.end) {
      const [a, b] = [prev.edit, cur.edit].sort((x, y) => x - y);
      throw new EditError(
        `edit ${a} and edit ${b} overlap (both change text around line ${lineOf(original, cur.start)} of ${label}). ` +
          "Merge them into one edit. Nothing was written.",
      );
    }
  }
  let text = "";
  let cursor = 0;
  for (const l of ordered) {
    text += original.slice(cursor, l.start) + l.newText;
    cursor = l.end;
  }
  text += original.slice(cursor);
  const hunks = located.map((l) => hunkOf(original, l, edits[l.edit - 1]!));
  return { text, hunks };
}

function locate(original: string, edit: TextEdit, n: number, count: number, label: string): Located {
  const which = count > 1 ? `edit ${n} of ${count}` : "edit";
  if (edit.oldText === "") {
    throw new EditError(`${which}: old_text is empty. Give the exact text to replace (use write to create a file). Nothing was written.`);
  }
  const first = original.indexOf(edit.oldText);
  if (first === -1) {
    throw new EditError(`${which}: old_text was not found in ${label}.${missHint(original, edit.oldText)} Nothing was written.`);
  }
  const positions = [first];
  for (let at = original.indexOf(edit.oldText, first + 1); at !== -1; at = original.indexOf(edit.oldText, at + 1)) {
    positions.push(at);
  }
  if (positions.length > 1) {
    const lines = positions.slice(0, 10).map((p) => lineOf(original, p)).join(", ");
    throw new EditError(
      `${which}: old_text matches ${positions.length} places in ${label} (lines ${lines}${positions.length > 10 ? ", …" : ""}). ` +
        "Include more surrounding lines so it matches exactly one place. Nothing was written.",
    );
  }
  return { edit: n, start: first, end: first + edit.oldText.length, newText: edit.newText };
}

/** Explains the most common near misses: whitespace and indentation differences. */
function missHint(original: string, oldText: string): string {
  const squash = (s: string) => s.split("\n").map((l) => l.trim()).join("\n");
  if (squash(original).includes(squash(oldText))) {
    return " It does match if whitespace at the start or end of lines is ignored: copy the text exactly as read shows it, indentation included.";
  }
  return " Read the file again and copy old_text exactly, including whitespace and line breaks.";
}

export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function hunkOf(original: string, l: Located, edit: TextEdit): EditHunk {
  const removed = edit.oldText.split("\n");
  const added = edit.newText === "" ? [] : edit.newText.split("\n");
  // Models pad edits with unchanged context lines; leave those out of the summary.
  let lead = 0;
  while (lead < removed.length - 1 && lead < added.length - 1 && removed[lead] === added[lead]) lead++;
  let tail = 0;
  while (
    tail < removed.length - lead - 1 && tail < added.length - lead - 1 &&
    removed[removed.length - 1 - tail] === added[added.length - 1 - tail]
  ) tail++;
  return {
    edit: l.edit,
    line: lineOf(original, l.start) + lead,
    removed: removed.slice(lead, removed.length - tail),
    added: added.slice(lead, added.length - tail),
  };
}

/** A short unified-style summary, at most `maxLines` diff lines. */
export function formatHunks(hunks: EditHunk[], maxLines: number): string {
  const out: string[] = [];
  let budget = maxLines;
  let omitted = 0;
  for (const h of [...hunks].sort((a, b) => a.line - b.line)) {
    const body = [...h.removed.map((l) => `-${l}`), ...h.added.map((l) => `+${l}`)];
    out.push(`@@ line ${h.line}: -${h.removed.length} +${h.added.length} @@`);
    const kept = body.slice(0, Math.max(0, budget));
    out.push(...kept);
    budget -= kept.length;
    omitted += body.length - kept.length;
  }
  if (omitted > 0) out.push(`… ${omitted} more diff line${omitted === 1 ? "" : "s"} not shown`);
  return out.join("\n");
}
