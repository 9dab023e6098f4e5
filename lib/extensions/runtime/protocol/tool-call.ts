// A host call of a protocol extension's tool: `tool_call` out, `tool_result` back, under the
// call's deadline (none for an interactive tool). Never throws: a timeout, a cancellation, a
// bad reply or a stopped extension become typed outcomes. `tool_cancel` goes only to an
// extension that advertised it, and only for a request that was actually delivered.
import { splitSupportedBlocks, type ToolCallFrame, type ToolResultFrame } from "../../../protocol/index.ts";
import { errorOutcome, type ToolOutcome } from "../../../tools/types.ts";
import type { ExtensionConnection } from "../connection.ts";
import type { DriverToolCall } from "../extension.ts";
import type { LoadedExtension } from "../extension.ts";

export async function callProtocolTool(ext: LoadedExtension, conn: ExtensionConnection, call: DriverToolCall): Promise<ToolOutcome> {
  const { id, name } = call;
  // Named in failures only; built lazily, since a call that succeeds never needs it.
  const who = () => `tool ${name} (extension "${ext.name}")`;
  const request: ToolCallFrame = { type: "tool_call", id, name, args: call.args };
  const reply = await conn.request<ToolResultFrame>(request, "tool_result", {
    timeoutMs: call.interactive ? null : call.timeoutMs,
    signal: call.signal,
  });
  if (reply.ok) {
    const result = reply.frame;
    const { blocks, unsupported } = splitSupportedBlocks(result.content ?? []);
    for (const type of unsupported) ext.log(`tool_result ${id} (${name}): content block of type "${type}" is not supported; omitted`);
    return {
      content: blocks.map((b) =>
        b.type === "text" ? { type: "text", text: b.text } : { type: "image", mime_type: b.mime_type, data: b.data }),
      isError: result.is_error === true,
      status: result.is_error === true ? "failed" : "completed",
      ...(result.activate_tools?.length ? { activateTools: result.activate_tools } : {}),
    };
  }
  if ((reply.reason === "timeout" || reply.reason === "cancelled") && ext.capabilities.has("tool_cancel")) {
    // Only a delivered call is cancelled; a write that completes after the cancel counts.
    void reply.written.then((written) => written && conn.send({ type: "tool_cancel", id }));
  }
  switch (reply.reason) {
    case "timeout":
      ext.log(`tool_call ${id} (${name}) timed out after ${call.timeoutMs} ms`);
      return errorOutcome(`${who()} did not reply within ${call.timeoutMs} ms`, "timed_out");
    case "cancelled":
      return errorOutcome(`${who()} was cancelled`, "cancelled");
    case "invalid":
      return errorOutcome(`${who()} sent an invalid tool_result: ${reply.message}`);
    case "unsendable":
      return errorOutcome(`${who()} was not called: ${reply.message}. The extension is still running; `
        + "call it again with smaller arguments.");
    default:
      return errorOutcome(`${who()} failed: the extension stopped (${reply.message})`);
  }
}
