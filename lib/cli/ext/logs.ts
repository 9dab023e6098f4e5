// `zot ext logs <name> [-f] [-n N]`: the tail of an extension's stderr log, optionally followed.
import { StringDecoder } from "node:string_decoder";
import { existsSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { defineCommand } from "citty";
import { printable } from "../../terminal-text.ts";
import { extensionLogPath, zotPaths } from "../../paths.ts";
import { listInstalled } from "../../extensions/install/installed.ts";
import { findInstalled } from "../../extensions/install/manage.ts";
import { cwdArg, rootsFor, UsageError } from "./args.ts";

const DEFAULT_LINES = 200;
const CHUNK = 64 * 1024;
/** How often `-f` looks for appended bytes. Polling works the same on every platform and runtime. */
const FOLLOW_INTERVAL_MS = 200;

/** The last `lines` lines of the file (a final line without newline counts) and the size read up to. */
export async function readTail(path: string, lines: number): Promise<{ bytes: Buffer; size: number }> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    if (lines <= 0 || size === 0) return { bytes: Buffer.alloc(0), size };
    const chunks: Buffer[] = [];
    let pos = size;
    let newlines = 0;
    let start = 0;
    let first = true;
    search: while (pos > 0) {
      const length = Math.min(CHUNK, pos);
      pos -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, pos);
      chunks.unshift(chunk);
      for (let i = length - 1; i >= 0; i--) {
        if (chunk[i] !== 0x0a) continue;
        // The newline ending the file closes the last line; it does not start one.
        if (first && pos + i === size - 1) continue;
        if (++newlines === lines) {
          start = pos + i + 1;
          break search;
        }
      }
      first = false;
    }
    const all = Buffer.concat(chunks);
    return { bytes: all.subarray(start - pos), size };
  } finally {
    await handle.close();
  }
}

/** The log of `name`: its own file, else (for a folder name) the file of that install's manifest name. */
async function resolveLogPath(name: string, cwd: unknown): Promise<string> {
  const paths = zotPaths();
  const direct = extensionLogPath(paths, name);
  if (existsSync(direct)) return direct;
  let installed = true;
  try {
    const ext = findInstalled(await listInstalled(rootsFor(cwd)), name);
    const byManifest = extensionLogPath(paths, ext.name);
    if (existsSync(byManifest)) return byManifest;
  } catch {
    installed = false;
  }
  if (!installed) throw new Error(`no extension named "${name}": none is installed and none has run under that name (zot ext list shows them)`);
  throw new Error(`no log for "${name}" yet (${direct}); zot writes it when it starts the extension`);
}

// The log holds what the extension wrote to stderr: on a terminal it is shown as text (escape
// sequences removed), into a pipe it goes byte for byte.
const decoder = new StringDecoder("utf8");
function write(bytes: Buffer): void {
  if (bytes.length === 0) return;
  process.stdout.write(process.stdout.isTTY ? printable(decoder.write(bytes)) : bytes);
}

/**
 * Prints bytes appended to `path` after `offset` until SIGINT or SIGTERM, or until stdout's reader
 * leaves (`zot ext logs x -f | head`); a truncated file restarts at 0.
 */
async function follow(path: string, offset: number, intervalMs = FOLLOW_INTERVAL_MS): Promise<void> {
  let position = offset;
  let busy = false;
  await new Promise<void>((resolve) => {
    const poll = async () => {
      if (busy) return;
      busy = true;
      try {
        const size = await stat(path).then((s) => s.size, () => -1);
        if (size >= 0 && size < position) {
          process.stderr.write(`zot: ${path} was truncated; following from its start\n`);
          position = 0;
        }
        if (size > position) {
          const handle = await open(path, "r");
          try {
            const chunk = Buffer.alloc(size - position);
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
            position += bytesRead;
            write(chunk.subarray(0, bytesRead));
          } finally {
            await handle.close();
          }
        }
      } finally {
        busy = false;
      }
    };
    // A failed read (file briefly gone while rotated) is retried on the next tick.
    const timer = setInterval(() => void poll().catch(() => undefined), intervalMs);
    const stop = () => {
      clearInterval(timer);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      process.stdout.off("error", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    process.stdout.on("error", stop);
  });
}

export const logsCommand = defineCommand({
  meta: { name: "logs", description: "Print the last lines of an extension's stderr log, or follow it" },
  args: {
    name: { type: "positional", description: "Extension name (manifest name; a folder name also works)", required: true },
    follow: { type: "boolean", alias: "f", description: "Keep printing lines as they are appended (Ctrl+C stops)" },
    lines: { type: "string", alias: "n", valueHint: "N", description: `Lines to print first (default ${DEFAULT_LINES})` },
    ...cwdArg,
  },
  async run({ args }) {
    let lines = DEFAULT_LINES;
    if (args.lines !== undefined) {
      if (!/^\d+$/.test(args.lines)) throw new UsageError(`-n expects a whole number of lines, got "${args.lines}"`);
      lines = Number(args.lines);
    }
    const path = await resolveLogPath(args.name, args.cwd);
    const { bytes, size } = await readTail(path, lines);
    write(bytes);
    if (args.follow) await follow(path, size);
    return 0;
  },
});
