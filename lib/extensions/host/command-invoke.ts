// Running one extension command once the host has looked it up: its driver asks it (a
// `command_invoked` frame, an MCP prompt) under the host's own deadline (the spec sets none),
// and an `open_panel` response opens its panel only within the extension's "panels" grant.
// Apart from the host, which owns the lookup and built-in names.
import type { CommandResponseFrame } from "../../protocol/index.ts";
import type { CallToolRouter } from "./call-tool.ts";
import type { Panels } from "./panels.ts";
import type { ExtensionCommandEntry } from "./registry.ts";

export interface CommandInvocation {
  timeoutMs: number;
  callTool: CallToolRouter;
  panels: Panels;
}

export async function invokeExtensionCommand(entry: ExtensionCommandEntry, args: string,
  { timeoutMs, callTool, panels }: CommandInvocation): Promise<CommandResponseFrame | { error: string }> {
  const ext = entry.extension;
  if (!ext.alive) return { error: `/${entry.name} is unavailable: extension "${ext.name}" is not running` };
  // The deadline is extended while the extension has a call_tool in flight, which covers the
  // user answering that call's confirmation.
  const expired = new AbortController();
  const stopDeadline = extendingDeadline(timeoutMs, () => callTool.inFlight(ext) > 0, () => expired.abort());
  const reply = await ext.driver.invokeCommand(entry.name, args, { signal: expired.signal, deadlineMs: timeoutMs });
  stopDeadline();
  if (!("action" in reply)) return reply;
  if (reply.action === "open_panel" && reply.open_panel) {
    if (!ext.permissions.allowsUi("panels")) {
      ext.permissions.refuse("ui", "panels", `command /${entry.name}: open_panel ignored: "panels" is not in permissions.ui`);
      const { open_panel: _panel, ...rest } = reply;
      return { ...rest, action: "noop" };
    }
    panels.openPanel(ext, reply.open_panel);
  }
  return reply;
}

/** Calls `expire` after `ms`, re-arming while `busy()` holds. Returns the cancel function. */
function extendingDeadline(ms: number, busy: () => boolean, expire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = () => (timer = setTimeout(() => (busy() ? arm() : expire()), ms));
  arm();
  return () => clearTimeout(timer);
}
