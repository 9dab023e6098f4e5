// File-system errors rephrased for the model: what was looked at and what to try instead.
import { ToolFailure } from "./failure.ts";

export function describeFsError(tool: string, raw: string, abs: string, err: unknown, cwd: string): ToolFailure {
  const code = (err as NodeJS.ErrnoException)?.code;
  const where = raw === abs ? raw : `${raw} (resolved to ${abs})`;
  switch (code) {
    case "ENOENT":
      return new ToolFailure(`${tool}: file not found: ${where}. Check the spelling; relative paths resolve against ${cwd}.`);
    case "EACCES":
    case "EPERM":
      return new ToolFailure(`${tool}: permission denied for ${where}.`);
    case "EISDIR":
      return new ToolFailure(`${tool}: ${where} is a directory, not a file.`);
    case "ENOTDIR":
      return new ToolFailure(`${tool}: a parent of ${where} is a file, not a directory. Check the path.`);
    default:
      return new ToolFailure(`${tool}: cannot access ${where}: ${(err as Error)?.message ?? String(err)}`);
  }
}
