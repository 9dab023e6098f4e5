// Runs a program to its end with stdin closed (print mode would otherwise wait for piped input)
// and collects what it printed.
import { spawn } from "node:child_process";

export interface ClosedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runClosed(exe: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<ClosedRun> {
  const child = spawn(exe, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}
