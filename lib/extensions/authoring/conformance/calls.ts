// Checks of the request/reply surface the user and the model reach: every registered command
// answers `command_invoked`, every non-interactive tool answers `tool_call` (with `{}` and with
// placeholder values for its required properties), and `tool_cancel` does not break it.
import { splitSupportedBlocks, type CommandResponseFrame, type RegisterToolFrame, type ToolResultFrame } from "../../../protocol/index.ts";
import { exchange, settleAlive, whileRunning } from "./exchange.ts";
import { requiredArgs } from "./payloads.ts";
import type { Session } from "./session.ts";

/** The field each command action needs to do anything. */
const ACTION_FIELD: Partial<Record<CommandResponseFrame["action"], keyof CommandResponseFrame>> = {
  prompt: "prompt", tool_prompt: "tool_name", insert: "insert", display: "display", open_panel: "open_panel",
};

export async function checkCommands(s: Session): Promise<void> {
  for (const command of s.commands) {
    const name = `command /${command}`;
    await whileRunning(s, name, async () => {
      const reply = await exchange(s, { type: "command_invoked", id: s.nextId("command"), name: command, args: "" },
        "command_response", s.timeouts.reply);
      if (!reply.ok) return void s.list.fail(name, reply.detail);
      const frame = reply.frame as CommandResponseFrame;
      const field = ACTION_FIELD[frame.action];
      const error = frame.error ? ` (error: ${frame.error})` : "";
      if (field && frame[field] === undefined && !frame.error) {
        s.list.warn(name, `action ${frame.action} without ${field}, so zot has nothing to ${frame.action === "tool_prompt" ? "run" : "show"}`);
      } else s.list.pass(name, `action ${frame.action} in ${reply.ms} ms${error}`);
    });
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Warnings about a tool_result the schema accepts but zot cannot use well. */
function resultWarnings(s: Session, frame: ToolResultFrame): string[] {
  const warnings: string[] = [];
  const { blocks: content, unsupported } = splitSupportedBlocks(frame.content ?? []);
  if (frame.content === undefined) warnings.push("no content (the model sees an empty result)");
  for (const type of unsupported) warnings.push(`content block of type "${type}" is not supported (zot omits it)`);
  for (const block of content) {
    if (block.type !== "image") continue;
    if (!block.mime_type.startsWith("image/")) warnings.push(`image block mime_type "${block.mime_type}" is not image/*`);
    if (block.data.length % 4 !== 0 || !BASE64.test(block.data)) warnings.push("image block data is not base64");
  }
  const registered = new Set(s.tools.map((t) => t.name));
  const unknown = (frame.activate_tools ?? []).filter((n) => !registered.has(n));
  if (unknown.length) warnings.push(`activate_tools names tools it did not register: ${unknown.join(", ")} (ignored)`);
  return warnings;
}

async function callTool(s: Session, tool: RegisterToolFrame, name: string, args: Record<string, unknown>): Promise<void> {
  await whileRunning(s, name, async () => {
    const reply = await exchange(s, { type: "tool_call", id: s.nextId("tool"), name: tool.name, args },
      "tool_result", s.timeouts.reply);
    if (!reply.ok) return void s.list.fail(name, reply.detail);
    const frame = reply.frame as ToolResultFrame;
    const blocks = frame.content?.length ?? 0;
    const detail = `${blocks} content block${blocks === 1 ? "" : "s"} in ${reply.ms} ms${frame.is_error ? " (is_error)" : ""}` +
      `, args ${JSON.stringify(args)}`;
    const warnings = resultWarnings(s, frame);
    if (warnings.length) s.list.warn(name, `${detail}; ${warnings.join("; ")}`);
    else s.list.pass(name, detail);
  });
}

export async function checkTools(s: Session): Promise<void> {
  for (const tool of s.tools) {
    if (tool.interactive) {
      s.list.skip(`tool ${tool.name}`, "interactive: it waits for the user, so it is not called");
      continue;
    }
    await callTool(s, tool, `tool ${tool.name} {}`, {});
    const args = requiredArgs(tool.schema);
    if (Object.keys(args).length === 0) s.list.skip(`tool ${tool.name} (required args)`, "its schema requires no properties");
    else await callTool(s, tool, `tool ${tool.name} (required args)`, args);
  }
}

/**
 * `tool_call` immediately followed by `tool_cancel`: the extension must survive it. A result for
 * the cancelled call is allowed (zot ignores late results) and only noted; run.ts amends the
 * detail when one arrives later in the run.
 */
export async function checkToolCancel(s: Session): Promise<{ id: string; mark: number } | undefined> {
  const name = "tool_cancel";
  if (!s.capabilities.includes("tool_cancel")) return void s.list.skip(name, "tool_cancel not advertised in hello");
  const tool = s.tools.find((t) => !t.interactive) ?? s.tools[0];
  if (!tool) return void s.list.skip(name, "no tools registered");
  let cancelled: { id: string; mark: number } | undefined;
  await whileRunning(s, name, async () => {
    const id = s.nextId("tool");
    const mark = s.driver.lines.length;
    s.driver.send({ type: "tool_call", id, name: tool.name, args: requiredArgs(tool.schema) });
    s.driver.send({ type: "tool_cancel", id });
    cancelled = { id, mark };
    const gone = await settleAlive(s);
    if (gone) return void s.list.fail(name, `${gone} after tool_cancel for ${tool.name}`);
    s.list.pass(name, `still running after tool_cancel for ${tool.name}; ${lateResultNote(s, id, mark)}`);
  });
  return cancelled;
}

/** Whether a tool_result for the cancelled call showed up (allowed, but worth knowing). */
export function lateResultNote(s: Session, id: string, mark: number): string {
  const late = s.driver.lines.slice(mark).some((l) => l.json?.type === "tool_result" && l.json.id === id);
  return late
    ? "a tool_result for the cancelled call arrived (allowed: zot ignores results of cancelled calls)"
    : "no result for the cancelled call";
}
