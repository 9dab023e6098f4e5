// What each rpc command does. A handler returns the response's `data` and, for work the reply
// acknowledges (a prompt, a compaction), a `then` that starts it once the response is written;
// it throws an Error whose message becomes the response's `error`.
import type { SessionBranch } from "../../agent/session/session-family.ts";
import type { Runtime } from "../../app/runtime.ts";
import { BUILTIN_COMMANDS } from "../../app/builtin-commands.ts";
import { parseSlash } from "../../app/slash.ts";
import { checkModelChoice } from "../../app/model-choice.ts";
import { listModels } from "../../providers/index.ts";
import { PROTOCOL_VERSION } from "../../protocol/limits.ts";
import { ZOT_VERSION } from "../../version.ts";
import { messagesForClient } from "./rpc-messages.ts";
import type { EventStream } from "../event-stream.ts";
import type { RpcCommand } from "./rpc-commands.ts";
import type { LineSink } from "../ndjson.ts";

export interface RpcContext {
  rt: Runtime;
  sink: LineSink;
  stream: EventStream;
  /** Remembers a run started by a command so EOF can wait for it. */
  track(run: Promise<unknown>): void;
}

export interface RpcReply {
  data: unknown;
  /** Runs right after the response line: starts the acknowledged work. */
  after?: () => void;
}

/**
 * Clearing, switching and changing the cwd wait for the session's queue; while a prompt or
 * compaction runs that would hold up every later command (abort included), so they are refused.
 */
function refuseWhileBusy(ctx: RpcContext): void {
  if (ctx.rt.session.running) throw new Error("agent is busy: wait for done, or abort first");
}

/**
 * What a reply to work that may wait says: `started` when it starts now, else `queued` (it
 * starts once the work before it is done; its events then begin).
 */
function acknowledgement(ctx: RpcContext): { started: boolean; queued: boolean } {
  const queued = ctx.rt.session.running;
  return { started: !queued, queued };
}

/** Queues a compaction that ends with `compact_done` and `done`; the reply does not wait for it. */
function startCompaction(ctx: RpcContext): RpcReply {
  return {
    data: acknowledgement(ctx),
    after: () => ctx.track(ctx.rt.session.compact({ reportDone: true })),
  };
}

/** The `command` command: a slash command, whose work ends with one `done` like a prompt's. */
async function runCommandLine(ctx: RpcContext, line: string): Promise<RpcReply> {
  const name = parseSlash(line)?.name.toLowerCase();
  if (name === "compact") {
    const compaction = startCompaction(ctx);
    return { ...compaction, data: { action: "compact", ...(compaction.data as object) } };
  }
  if (name === "clear" || name === "cd") refuseWhileBusy(ctx);
  const { result, error } = await ctx.rt.slash(line, { interactive: false });
  if (error) ctx.sink.write({ type: "ext_notify", extension: error.extension, level: "error", message: error.message });
  const withError = error ? { error: error.message } : {};
  // A run ends with the session's own `done`; anything else is finished once answered.
  const finished = () => ctx.stream.done(error ? { type: "done", stop: "error", error: error.message } : { type: "done", stop: "end_turn" });
  switch (result.kind) {
    case "failed":
      throw new Error(result.message);
    case "run":
      ctx.track(result.run);
      return { data: { action: "run", ...withError } };
    case "output":
      return { data: { action: "output", text: result.text }, after: finished };
    case "display":
    case "insert":
      ctx.sink.write({ type: "ext_display", extension: result.extension, text: result.text });
      return { data: { action: result.kind, text: result.text, ...withError }, after: finished };
    case "panel":
      return { data: { action: "open_panel", panel: result.panel }, after: finished };
    default:
      return { data: { action: "noop", ...withError }, after: finished };
  }
}

export async function handleRpcCommand(ctx: RpcContext, command: RpcCommand): Promise<RpcReply> {
  if (command.type === "prompt") return startPrompt(ctx, command);
  if (command.type === "command") return runCommandLine(ctx, `/${command.name}${command.args ? ` ${command.args}` : ""}`);
  if (command.type === "compact") return startCompaction(ctx);
  return { data: await answer(ctx, command) };
}

/** `prompt` always goes to the model (slash commands have `command`); it is queued behind running work. */
function startPrompt(ctx: RpcContext, command: Extract<RpcCommand, { type: "prompt" }>): RpcReply {
  const images = command.images?.map((i) => ({ type: "image" as const, mime_type: i.mime_type, data: i.data })) ?? [];
  if (!command.message.trim() && images.length === 0) throw new Error("empty prompt: give a message or images");
  return { data: acknowledgement(ctx), after: () => ctx.track(ctx.rt.prompt(command.message, { images })) };
}

/** The commands answered at once, without work left to do. */
async function answer(ctx: RpcContext, command: Exclude<RpcCommand, { type: "prompt" | "command" | "compact" }>): Promise<unknown> {
  const { rt } = ctx;
  const session = rt.session;
  switch (command.type) {
    case "hello":
      return {
        protocol_version: PROTOCOL_VERSION, version: ZOT_VERSION, provider: session.state.provider, model: session.state.model,
        session_id: session.sessionId, cwd: rt.cwd,
      };
    case "ping":
      return { pong: true };
    case "abort":
      // Queued prompts still run, in order, unless `all` withdraws them (each gets its done).
      return { withdrawn: rt.abort({ keepQueued: !command.all }) };
    case "get_state":
      return {
        ...session.state, busy: session.running,
        // full_access: the manifest declares no permissions (absent when it cannot be read).
        extensions: rt.extensionReports().map((r) => ({ name: r.name, status: r.status, scope: r.scope,
          ...(r.permissions ? { full_access: r.permissions.full_access } : {}) })),
      };
    case "get_messages":
      return { messages: messagesForClient(session.messages, { includeImages: command.include_images ?? false }) };
    case "get_commands":
      return {
        commands: [
          ...BUILTIN_COMMANDS.filter((c) => !c.interactiveOnly).map((c) => ({ name: c.name, description: c.description, source: "builtin" })),
          ...rt.commands().map((c) => ({ name: c.name, description: c.description, source: c.extension })),
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
      refuseWhileBusy(ctx);
      await session.clear();
      return {};
    case "new_session":
      refuseWhileBusy(ctx);
      return { session_id: await rt.switchSession() };
    case "switch_session":
      refuseWhileBusy(ctx);
      return { session_id: await rt.switchSession({ id: command.session_id }) };
    case "fork_session": {
      refuseWhileBusy(ctx);
      const forked = await (await rt.branches()).fork(command.message_index);
      return { session_id: forked.sessionId, prompt: forked.prompt };
    }
    case "get_session_tree": {
      const { current, families } = (await rt.branches()).tree();
      return { current, sessions: families.map(treeNode) };
    }
    case "export_session":
      return { path: await (await rt.branches()).export(command.path) };
    case "import_session": {
      const imported = await (await rt.branches()).import(command.path);
      return { session_id: imported.sessionId, messages: imported.messages };
    }
    case "btw": {
      if (!command.message.trim()) throw new Error("btw needs a message: the question to ask aside");
      const aside = await session.btw(command.message);
      if (!aside.ok) throw new Error(aside.error);
      return { answer: aside.text };
    }
    case "set_cwd": {
      refuseWhileBusy(ctx);
      const moved = await rt.changeCwd(command.path);
      return { cwd: moved.cwd, session_id: moved.sessionId };
    }
    case "set_model": {
      const choice = checkModelChoice(command.model, { provider: session.state.provider, baseUrl: rt.settings.baseUrl });
      await rt.setModel(command.model);
      return { provider: session.state.provider, model: session.state.model, ...(choice.warning ? { warning: choice.warning } : {}) };
    }
    case "get_models":
      return {
        models: listModels(command.all ? undefined : session.state.provider).map((info) => ({ ...info, reasoning: info.thinking !== undefined })),
      };
    case "get_agents":
      return { agents: rt.agents?.list() ?? [], running: rt.agents?.running ?? 0 };
    case "stop_agent":
      if (!rt.agents?.stop(command.agent_id)) throw new Error(`no running agent "${command.agent_id}"`);
      return { stopping: true };
    case "panel_key":
      if (!rt.panels.open().some((p) => p.panelId === command.panel_id)) throw new Error(`no open panel "${command.panel_id}"`);
      // As in the REPL, esc is the user closing the panel (the client has no other way to):
      // the extension gets panel_close and the stream gets ext_panel_close.
      if (command.key === "esc") {
        rt.panels.close(command.panel_id);
        return { closed: true };
      }
      rt.panels.key(command.panel_id, command.key, command.text);
      return {};
  }
}

/** One session of get_session_tree, its branches nested (snake_case, as on the wire). */
function treeNode({ session: s, children }: SessionBranch): Record<string, unknown> {
  return {
    session_id: s.id, created: s.created, modified: s.modified.toISOString(), messages: s.messages, first_prompt: s.firstPrompt,
    ...(s.parent ? { parent_id: s.parent.id, fork_message_index: s.parent.message_index } : {}),
    ...(s.damaged ? { damaged: s.damaged } : {}),
    branches: children.map(treeNode),
  };
}
