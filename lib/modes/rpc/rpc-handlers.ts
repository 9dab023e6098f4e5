// What each rpc command does. A handler returns the response's `data`, or throws an Error whose
// message becomes the response's `error`.
import type { Runtime } from "../../app/runtime.ts";
import { BUILTIN_COMMANDS } from "../../app/builtin-commands.ts";
import { runSlash } from "../../app/slash.ts";
import { listModels } from "../../providers/index.ts";
import type { RpcCommand } from "./rpc-commands.ts";
import type { LineSink } from "../ndjson.ts";

export interface RpcContext {
  rt: Runtime;
  sink: LineSink;
  /** Remembers a run started by a command so EOF can wait for it. */
  track(run: Promise<unknown>): void;
}

async function runCommandLine(ctx: RpcContext, line: string): Promise<unknown> {
  const { result, error } = await runSlash(ctx.rt, line, { interactive: false });
  if (error) ctx.sink.write({ type: "ext_notify", extension: error.extension, level: "error", message: error.message });
  switch (result.kind) {
    case "failed":
      throw new Error(result.message);
    case "run":
      ctx.track(result.run);
      return { action: "run", ...(error ? { error: error.message } : {}) };
    case "output":
      return { action: "output", text: result.text };
    case "display":
    case "insert":
      ctx.sink.write({ type: "ext_display", extension: result.extension, text: result.text });
      return { action: result.kind, text: result.text, ...(error ? { error: error.message } : {}) };
    case "panel":
      return { action: "open_panel", panel: result.panel };
    default:
      return { action: "noop", ...(error ? { error: error.message } : {}) };
  }
}

export async function handleRpcCommand(ctx: RpcContext, command: RpcCommand): Promise<unknown> {
  const { rt } = ctx;
  const session = rt.session;
  switch (command.type) {
    case "hello":
      return { session_id: session.sessionId, cwd: rt.cwd };
    case "ping":
      return { pong: true };
    case "prompt": {
      if (command.message.trimStart().startsWith("/") && !command.images?.length) return runCommandLine(ctx, command.message.trim());
      const queued = session.running;
      const run = session.prompt(command.message, { images: command.images?.map((i) => ({ type: "image" as const, mime_type: i.mime_type, data: i.data })) });
      ctx.track(run);
      return { queued };
    }
    case "command":
      return runCommandLine(ctx, `/${command.name}${command.args ? ` ${command.args}` : ""}`);
    case "abort":
      return { withdrawn: session.abort() };
    case "compact": {
      const result = await session.compact();
      if (result.status !== "completed") throw new Error(`compaction ${result.status}${result.error ? `: ${result.error}` : ""}`);
      return result;
    }
    case "get_state":
      return { ...session.state, extensions: rt.host.reports().map((r) => ({ name: r.name, status: r.status, scope: r.scope })) };
    case "get_messages":
      return { messages: session.messages };
    case "get_commands":
      return {
        commands: [
          ...BUILTIN_COMMANDS.filter((c) => !c.interactiveOnly).map((c) => ({ name: c.name, description: c.description, source: "builtin" })),
          ...rt.host.commands().map((c) => ({ name: c.name, description: c.description, source: c.extension })),
        ],
      };
    case "get_tools":
      return {
        tools: [...session.tools().values()].map((t) => ({
          name: t.name, description: t.description, schema: t.schema,
          source: t.source.kind === "builtin" ? "builtin" : t.source.extension,
        })),
      };
    case "clear":
      await session.clear();
      return {};
    case "new_session":
      return { session_id: await rt.switchSession() };
    case "switch_session":
      return { session_id: await rt.switchSession({ id: command.session_id }) };
    case "set_model":
      await rt.setModel(command.model);
      return { provider: session.state.provider, model: session.state.model };
    case "get_models":
      return { models: listModels() };
    case "panel_key":
      if (!rt.host.openPanels().some((p) => p.panelId === command.panel_id)) throw new Error(`no open panel "${command.panel_id}"`);
      // As in the REPL, esc is the user closing the panel (the client has no other way to):
      // the extension gets panel_close and the stream gets ext_panel_close.
      if (command.key === "esc") {
        rt.host.closePanel(command.panel_id);
        return { closed: true };
      }
      rt.host.panelKey(command.panel_id, command.key, command.text);
      return {};
  }
}
