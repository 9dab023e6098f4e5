// What a manifest's `exec` runs, and why it could not be started. A relative exec with a path
// separator is relative to the extension folder; a bare name is looked up on PATH, falling back
// to a file of that name in the folder. When the OS says ENOENT for a script that exists, the
// missing file is its `#!` interpreter, and the diagnostic says so.
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, relative, resolve, sep } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the folders of `path` (PATH's syntax), if any. */
export function findOnPath(name: string, path = process.env.PATH ?? ""): string | undefined {
  for (const entry of path.split(delimiter).filter(Boolean)) {
    if (isExecutableFile(join(entry, name))) return join(entry, name);
  }
  return undefined;
}

const onPath = (name: string, path?: string) => findOnPath(name, path) !== undefined;

export function resolveExec(dir: string, exec: string): string {
  if (isAbsolute(exec)) return exec;
  if (/[\\/]/.test(exec)) return resolve(dir, exec);
  if (onPath(exec)) return exec;
  return existsSync(join(dir, exec)) ? join(dir, exec) : exec;
}

/**
 * A warning when a relative `exec` leads out of the extension's folder (`../other/run.sh`):
 * zot runs it, but the program is not part of the extension that was installed or reviewed.
 */
export function execOutsideFolder(dir: string, exec: string): string | undefined {
  if (isAbsolute(exec) || !/[\\/]/.test(exec)) return undefined;
  const target = resolve(dir, exec);
  const rel = relative(resolve(dir), target);
  if (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return undefined;
  return `exec "${exec}" resolves outside the extension's folder, to ${target}; it runs, but it is not part of this extension`;
}

/** The first line of `path` after `#!`, if the file starts with one. */
export function shebang(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(512);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString("utf8");
    return text.startsWith("#!") ? text.slice(2).split("\n")[0] : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What is wrong with the `#!` line of script `command`, if anything can be seen: no
 * interpreter, one that does not exist, a name `env` cannot find on PATH, or a carriage return
 * (Windows line endings) glued to the interpreter's name.
 */
export function interpreterProblem(command: string): string | undefined {
  if (!isAbsolute(command) || !existsSync(command)) return undefined;
  const line = shebang(command);
  if (line === undefined) return undefined;
  if (line.endsWith("\r")) {
    return `cannot run ${command}: its #! line ends with a carriage return (Windows line endings), so the interpreter `
      + `"${line.trim()}\\r" does not exist; save the file with Unix line endings`;
  }
  const [interpreter = "", ...args] = line.trim().split(/\s+/);
  if (interpreter === "") return `cannot run ${command}: its #! line names no interpreter`;
  if (!existsSync(interpreter)) return `cannot run ${command}: its #! interpreter ${interpreter} does not exist`;
  if (basename(interpreter) === "env") {
    const name = args.find((a) => !a.startsWith("-"));
    if (name && !onPath(name)) return `cannot run ${command}: its #! line asks ${interpreter} for "${name}", which is not on PATH`;
  }
  return undefined;
}

/**
 * Why `command` could not be started: the spawn error, unless the real cause is a `#!`
 * interpreter that does not exist (the OS reports that as ENOENT on the script itself).
 */
export function explainSpawnError(command: string, error: NodeJS.ErrnoException): string {
  return (error.code === "ENOENT" ? interpreterProblem(command) : undefined) ?? error.message;
}
