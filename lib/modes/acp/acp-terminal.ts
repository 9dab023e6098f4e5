// bash in the editor's terminal: when the client offers `terminal`, the command runs there
// (terminal/create), the tool call shows that terminal live, and zot waits for its exit, kills it
// at the bash tool's timeout or on cancel, reads its output and always releases it.
import type * as acp from "@agentclientprotocol/sdk";
import type { CommandTerminal, TerminalResult } from "../../tools/command-terminal.ts";
import { findShell } from "../../tools/shell.ts";

/** How long zot waits for a killed terminal to report its exit before reading what it has. */
const KILL_WAIT_MS = 2_000;

export function editorTerminal(client: acp.AgentContext, sessionId: () => string, offered: boolean | undefined,
  showIn: (toolId: string, terminalId: string) => void): CommandTerminal | undefined {
  if (!offered) return undefined;
  return {
    async run(request): Promise<TerminalResult> {
      const session = sessionId();
      const create: acp.CreateTerminalRequest = {
        sessionId: session, command: findShell(), args: ["-c", request.command], cwd: request.cwd,
        env: Object.entries(request.env).map(([name, value]) => ({ name, value })), outputByteLimit: request.outputByteLimit,
      };
      const { terminalId } = await client.request("terminal/create", create);
      const ids: acp.TerminalOutputRequest = { sessionId: session, terminalId };
      try {
        if (request.toolId) showIn(request.toolId, terminalId);
        const exited = client.request("terminal/wait_for_exit", ids);
        exited.catch(() => {});
        let stop: TerminalResult["stop"];
        let timer: ReturnType<typeof setTimeout> | undefined;
        let onAbort: (() => void) | undefined;
        const stopped = new Promise<void>((resolve) => {
          timer = setTimeout(() => resolve(void (stop ??= "timed_out")), request.timeoutMs);
          onAbort = () => resolve(void (stop ??= "cancelled"));
          if (request.signal.aborted) onAbort();
          request.signal.addEventListener("abort", onAbort, { once: true });
        });
        let status: { exitCode?: number | null; signal?: string | null } | undefined;
        try {
          status = await Promise.race([exited, stopped.then(() => undefined)]);
        } finally {
          clearTimeout(timer);
          if (onAbort) request.signal.removeEventListener("abort", onAbort);
        }
        if (status === undefined) {
          await client.request("terminal/kill", ids).catch(() => {});
          status = await Promise.race([exited.catch(() => undefined), new Promise<undefined>((r) => setTimeout(r, KILL_WAIT_MS))]);
        }
        const output = await client.request("terminal/output", ids);
        const exit = status ?? output.exitStatus ?? {};
        return { output: output.output, truncated: output.truncated, exitCode: exit.exitCode ?? null, signal: exit.signal ?? null,
          ...(stop ? { stop } : {}) };
      } finally {
        await client.request("terminal/release", ids).catch(() => {});
      }
    },
  };
}
