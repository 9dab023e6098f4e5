// The scratchpad's notes, kept as a JSON array in one file in the extension's data directory.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export class NoteStore {
  private notes: string[] = [];

  /** Loads `file` if it exists; a missing file is an empty scratchpad, a corrupt one an error. */
  constructor(readonly file: string) {
    let raw: string;
    try {
      raw = readFileSync(file, "utf8");
    } catch {
      return;
    }
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed) || !parsed.every((n) => typeof n === "string")) {
      throw new Error(`${file} is not a JSON array of strings`);
    }
    this.notes = parsed;
  }

  list(): readonly string[] {
    return this.notes;
  }

  /** Appends a note and returns its 1-based number. */
  add(note: string): number {
    this.notes.push(note);
    this.save();
    return this.notes.length;
  }

  /** Removes the note at 0-based `index`; false when there is none. */
  remove(index: number): boolean {
    if (index < 0 || index >= this.notes.length) return false;
    this.notes.splice(index, 1);
    this.save();
    return true;
  }

  /** "1. first\n2. second", or `empty` when there are no notes. */
  numbered(empty = "The scratchpad is empty."): string {
    return this.notes.length === 0 ? empty : this.notes.map((n, i) => `${i + 1}. ${n}`).join("\n");
  }

  // Write-then-rename, so a crash never leaves half a file.
  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.notes, null, 2)}\n`);
    renameSync(tmp, this.file);
  }
}
