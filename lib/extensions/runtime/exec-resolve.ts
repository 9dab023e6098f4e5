// What a manifest's `exec` runs, and why it could not be started. A relative exec with a path
// separator is relative to the extension folder; a bare name is looked up on PATH, falling back
// to a file of that name in the folder. When the OS says ENOENT for a script that exists, the
// missing file is its `#!` interpreter, and the diagnostic says so.
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, resolve } from "node:path";

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

/** env's options that take a value as the next word (GNU and BSD env). */
const ENV_VALUE_OPTIONS = new Set(["-u", "--unset", "-C", "--chdir", "-P", "-S", "--split-string"]);

/**
 * The words `env` sees from a #! line's argument: the kernel passes everything after the
 * interpreter as one argument, which env splits only after -S (or --split-string).
 */
export function envWords(argument: string): string[] {
  const words = argument.split(/\s+/).filter(Boolean);
  const first = words[0] ?? "";
  return /^-[a-zA-Z0-9]*S/.test(first) || first.startsWith("--split-string") ? words : argument === "" ? [] : [argument];
}

/** The program `env` runs given its arguments: the first word that is not an option, an option's value or NAME=VALUE. */
export function envProgram(words: string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") return words[i + 1];
    if (word.startsWith("-")) {
      if (word.startsWith("--")) {
        if (ENV_VALUE_OPTIONS.has(word)) i++;
        continue;
      }
      // Clustered short options: a value option ends the cluster, its value is the rest or the next word.
      for (let c = 1; c < word.length; c++) {
        if (!ENV_VALUE_OPTIONS.has(`-${word[c]}`)) continue;
        if (c === word.length - 1 && word[c] !== "S") i++;
        break;
      }
      continue;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    return word;
  }
  return undefined;
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
  const trimmed = line.trim();
  const interpreter = trimmed.split(/\s+/)[0] ?? "";
  if (interpreter === "") return `cannot run ${command}: its #! line names no interpreter`;
  if (!existsSync(interpreter)) return `cannot run ${command}: its #! interpreter ${interpreter} does not exist`;
  if (basename(interpreter) === "env") {
    const name = envProgram(envWords(trimmed.slice(interpreter.length).trim()));
    if (name && !/[\\/]/.test(name) && !onPath(name)) return `cannot run ${command}: its #! line asks ${interpreter} for "${name}", which is not on PATH`;
  }
  return undefined;
}

/**
 * Why `command` could not be started: the spawn error, unless the real cause is a `#!`
 * interpreter that does not exist (the OS reports that as ENOENT on the script itself).
 */
export function explainSpawnError(command: string, error: NodeJS.ErrnoException): string {
  if (error.code === "EACCES" && existsSync(command) && !isExecutableFile(command)) return notExecutable(command);
  if (error.code !== "ENOENT") return error.message;
  return interpreterProblem(command) ?? notFound(command);
}

/** A script without its executable bit (lost by zip archives and some copies): how to fix it. */
function notExecutable(path: string): string {
  return `not executable: chmod +x ${path}`;
}

/** "spawn npx ENOENT: no executable npx on PATH (/usr/local/bin:/usr/bin)", or the path that does not exist. */
function notFound(command: string, pathVar = process.env.PATH ?? ""): string {
  if (isAbsolute(command) || /[\\/]/.test(command)) return `spawn ${command} ENOENT: ${command} does not exist`;
  return `spawn ${command} ENOENT: no executable ${command} on PATH (${pathVar || "PATH is empty"})`;
}

/**
 * Why `command` (resolveExec's result) cannot be executed, in the words a direct spawn would
 * give: not found, not executable, or a #! interpreter that is missing. Checked before a
 * sandbox or PID namespace starts it, since bubblewrap reports such a failure as its own exit 1.
 */
export function notRunnable(command: string, pathVar = process.env.PATH): string | undefined {
  const located = isAbsolute(command) ? command : findOnPath(command, pathVar);
  if (!located || !existsSync(located)) return notFound(command, pathVar);
  if (!isExecutableFile(located)) return notExecutable(located);
  return interpreterProblem(located);
}
