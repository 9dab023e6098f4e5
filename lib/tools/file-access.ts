// Where the file tools read and write: the disk, or (in `zot acp`) the editor, whose open buffers
// are what the user sees. Only file contents go through it; the tools still ask the disk whether
// a path is a directory and how large it is.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export interface FileAccess {
  /** The file's bytes. */
  read(abs: string): Promise<Buffer>;
  /** Replaces the file with `text`, creating missing parent folders. */
  writeText(abs: string, text: string): Promise<void>;
}

export const diskFiles: FileAccess = {
  read: (abs) => readFile(abs),
  async writeText(abs, text) {
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, text, "utf8");
  },
};
