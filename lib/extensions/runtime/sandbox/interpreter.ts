// Which programs a sandboxed extension's start runs, found the way the kernel and `env` will find
// them, so the sandbox mounts exactly their installations and nothing a #! line merely mentions:
// the command itself, its #! interpreter (the first word after #!, which must be an absolute
// path), and for `env` the program it starts. env's options are many, and GNU env takes any
// unambiguous abbreviation of a long one (`--uns` is `--unset`), so only the forms whose program
// zot can prove are accepted: `env PROGRAM` and `env -S [NAME=VALUE…] PROGRAM [ARGS…]`; any other
// option is refused. A relative path or a `..` is refused too: it would name a folder of the
// attacker's choosing.
import { realpathSync } from "node:fs";
import { basename, isAbsolute } from "node:path";
import { findOnPath, shebang } from "../exec-resolve.ts";

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
 * The program `env` runs for the argument the kernel gives it, in the two forms zot can prove;
 * throws for any other option. Without -S the argument is one word to env, the program's name.
 */
function provenEnvProgram(argument: string, script: string): string | undefined {
  if (argument === "") return undefined;
  if (!argument.startsWith("-")) return argument;
  const split = /^-S\s+(.*)$/.exec(argument);
  const words = split ? split[1]!.split(/\s+/).filter(Boolean) : [];
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (split && program !== undefined && !program.startsWith("-")) return program;
  throw new InterpreterError(`${script}: its #! line gives env the options "${argument}", which zot cannot verify for a sandboxed `
    + `extension; write "#!/usr/bin/env PROGRAM" or "#!/usr/bin/env -S PROGRAM ARGS…"`);
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
  const program = provenEnvProgram(trimmed.slice(interpreter.length).trim(), located);
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
