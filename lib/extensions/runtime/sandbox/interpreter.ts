// Which programs a sandboxed extension's start runs, found the way the kernel and `env` will find
// them, so the sandbox mounts exactly their installations and nothing a #! line merely mentions:
// the command itself, its #! interpreter (the first word after #!, which must be an absolute
// path), and for `env` the program it starts (the first word that is not one of env's options,
// their values or a NAME=VALUE assignment; looked up on PATH when it is a bare name). A relative
// path or a `..` anywhere there is refused: it would name a folder of the attacker's choosing.
import { realpathSync } from "node:fs";
import { basename, isAbsolute } from "node:path";
import { envProgram, envWords, findOnPath, shebang } from "../exec-resolve.ts";

export class InterpreterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InterpreterError";
  }
}

const hasDotDot = (path: string) => path.split(/[\\/]/).includes("..");

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // a program that does not exist fails to start and says so
  }
}

function checkPath(path: string, what: string, script: string): void {
  if (!isAbsolute(path) || hasDotDot(path)) {
    throw new InterpreterError(`${script}: its #! line names ${what} "${path}"; a sandboxed extension's interpreter must be an absolute path without ".."`);
  }
}

/**
 * The real paths of the programs that starting `command` (already resolved to a path) runs:
 * the command, its interpreter, and env's program. `pathVar` is the PATH the extension gets.
 */
export function programsToMount(command: string, pathVar: string | undefined): string[] {
  const programs: string[] = [];
  const located = isAbsolute(command) ? command : findOnPath(command, pathVar);
  if (!located) return programs;
  programs.push(real(located));
  const line = shebang(located);
  if (line === undefined) return programs;
  const trimmed = line.trim();
  const interpreter = trimmed.split(/\s+/)[0] ?? "";
  checkPath(interpreter, "the interpreter", located);
  programs.push(real(interpreter));
  if (basename(interpreter) !== "env") return programs;
  const program = envProgram(envWords(trimmed.slice(interpreter.length).trim()));
  if (program === undefined) return programs;
  if (/[\\/]/.test(program)) {
    checkPath(program, "the program", located);
    programs.push(real(program));
  } else {
    const found = findOnPath(program, pathVar);
    if (found) programs.push(real(found));
  }
  return programs;
}
