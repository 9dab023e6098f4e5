// One ACP session: a zot runtime (providers, extensions, MCP, subagents, the saved session) shown
// to the editor. Its events become `session/update` notifications in order, its confirmations
// `session/request_permission`, and its file tools go through the editor when it offers fs.
import { readFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { createRuntime, type Runtime } from "../../app/runtime.ts";
import type { RunConfigInput } from "../../app/run-config.ts";
import type { Frontend } from "../../app/frontend.ts";
import type { ConfirmAnswer, ConfirmRequest } from "../../agent/loop/permissions.ts";
import type { ZotEvent } from "../../events/index.ts";
import { BUILTIN_COMMANDS } from "../../app/builtin-commands.ts";
import { listModels } from "../../providers/index.ts";
import type { FileAccess } from "../../tools/file-access.ts";
import { changesFile, resultContent, toolKind, toolPath, toolTitle } from "./acp-tool-calls.ts";
import { editorFiles } from "./acp-files.ts";
import { editorTerminal } from "./acp-terminal.ts";
import type { CommandTerminal } from "../../tools/command-terminal.ts";
import { editorServers, type EditorServers } from "./acp-mcp.ts";
import { userPrompt } from "./acp-prompt.ts";
import { replayTranscript } from "./acp-replay.ts";

/** Session modes: how zot's permission policy asks before a tool runs. */
export const MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "Ask before every tool call" },
  { id: "accept-edits", name: "Accept edits", description: "Read, write, edit, glob and grep run without asking; everything else asks" },
  { id: "yolo", name: "Yolo", description: "Run every tool call without asking" },
];
type ModeId = "ask" | "accept-edits" | "yolo";
const FILE_TOOLS = new Set(["read", "write", "edit", "glob", "grep"]);

export interface AcpSessionOptions {
  client: acp.AgentContext;
  clientCapabilities: acp.ClientCapabilities | undefined;
  config: RunConfigInput;
  env: Record<string, string | undefined>;
  cwd: string;
  mcpServers: readonly acp.McpServer[];
  /** session/load: the saved zot session to continue. */
  resumeId?: string;
  /** Warnings and diagnostics: stderr, never stdout. */
  log(line: string): void;
}

export class AcpSession {
  id = "";
  private rt!: Runtime;
  private mode: ModeId;
  private readonly files: FileAccess | undefined;
  private readonly terminal: CommandTerminal | undefined;
  /** The editor terminal each bash call ran in, by tool call id: it stays in the call's content. */
  private readonly terminals = new Map<string, string>();
  private readonly servers: EditorServers;
  /** Updates go out one after another, in the order of the events. */
  private sent: Promise<unknown> = Promise.resolve();
  /** The text of each written or edited file before its call, by tool call id. */
  private readonly before = new Map<string, Promise<string | undefined>>();

  private constructor(private readonly o: AcpSessionOptions) {
    this.mode = o.config.yolo === false ? "ask" : "yolo";
    this.files = editorFiles(o.client, () => this.id, o.clientCapabilities?.fs);
    this.terminal = editorTerminal(o.client, () => this.id, o.clientCapabilities?.terminal, (toolId, terminalId) => {
      this.terminals.set(toolId, terminalId);
      this.send({ sessionUpdate: "tool_call_update", toolCallId: toolId, content: [{ type: "terminal", terminalId }] });
    });
    this.servers = editorServers(o.mcpServers);
  }

  static async open(o: AcpSessionOptions): Promise<AcpSession> {
    const s = new AcpSession(o);
    for (const problem of s.servers.problems) o.log(problem);
    try {
      s.rt = await createRuntime({
        ...o.config, cwd: o.cwd, yolo: s.mode === "yolo",
        session: o.resumeId ? { kind: "resume", id: o.resumeId } : { kind: "new" },
        extensions: { ...o.config.extensions, paths: [...(o.config.extensions?.paths ?? []), ...s.servers.dirs] },
      }, { frontend: s.frontend(), env: o.env, interactive: false, ...(s.files ? { files: s.files } : {}),
        ...(s.terminal ? { terminal: s.terminal } : {}) });
    } catch (err) {
      s.servers.remove();
      throw err;
    }
    s.rt.session.start();
    if (o.resumeId) for (const update of replayTranscript(s.rt.session.messages, s.rt.cwd)) s.send(update);
    s.send({ sessionUpdate: "available_commands_update", availableCommands: s.commands() });
    await s.sent;
    return s;
  }

  /** What session/new and session/load answer besides the id. */
  state(): { modes: acp.SessionModeState; configOptions: acp.SessionConfigOption[] } {
    return { modes: { currentModeId: this.mode, availableModes: MODES }, configOptions: this.configOptions() };
  }

  private configOptions(): acp.SessionConfigOption[] {
    const { provider, model } = this.rt.session.info();
    const known = listModels(provider).map((m) => ({ value: m.id, name: m.id }));
    if (!known.some((m) => m.value === model)) known.unshift({ value: model, name: model });
    return [{ id: "model", name: "Model", category: "model", type: "select", currentValue: model, options: known }];
  }

  private commands(): acp.AvailableCommand[] {
    return [
      ...BUILTIN_COMMANDS.filter((c) => !c.interactiveOnly).map((c) => ({ name: c.name, description: c.description })),
      ...this.rt.commands().map((c) => ({ name: c.name, description: `${c.description} (${c.extension})` })),
    ];
  }

  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
    const { text, images } = userPrompt(blocks);
    let stop: string;
    let error: string | undefined;
    if (images.length === 0 && this.rt.isCommandLine(text.trim())) {
      const outcome = await this.rt.slash(text.trim(), { interactive: false });
      const result = outcome.result;
      if (outcome.error) this.say(`${outcome.error.extension}: ${outcome.error.message}`);
      if (result.kind === "output" || result.kind === "display" || result.kind === "insert") this.say(result.text);
      if (result.kind === "failed") throw acp.RequestError.internalError(undefined, result.message);
      ({ stop, error } = result.kind === "run" ? await result.run : { stop: "end_turn", error: undefined });
      this.send({ sessionUpdate: "available_commands_update", availableCommands: this.commands() });
    } else {
      ({ stop, error } = await this.rt.prompt(text, images.length > 0 ? { images } : {}));
    }
    await this.sent;
    switch (stop) {
      case "aborted": return "cancelled";
      case "length": return "max_tokens";
      case "blocked": return "refusal";
      case "error": throw acp.RequestError.internalError(undefined, error ?? "the model request failed");
      default: return "end_turn";
    }
  }

  cancel(): void {
    this.rt.abort({ keepQueued: false });
  }

  setMode(id: string): void {
    if (!MODES.some((m) => m.id === id)) throw acp.RequestError.invalidParams(undefined, `unknown mode "${id}" (modes: ${MODES.map((m) => m.id).join(", ")})`);
    this.mode = id as ModeId;
    this.rt.session.setYolo(this.mode === "yolo");
    this.send({ sessionUpdate: "current_mode_update", currentModeId: this.mode });
  }

  async setConfig(configId: string, value: unknown): Promise<acp.SessionConfigOption[]> {
    if (configId !== "model" || typeof value !== "string") throw acp.RequestError.invalidParams(undefined, `unknown config option "${configId}" (options: model)`);
    await this.rt.setModel(value).catch((err: Error) => { throw acp.RequestError.invalidParams(undefined, err.message); });
    return this.configOptions();
  }

  async close(): Promise<void> {
    await this.rt.close({ abort: true });
    this.servers.remove();
  }

  private send(update: acp.SessionUpdate): void {
    const params = { sessionId: this.id, update };
    this.sent = this.sent.then(() => this.o.client.notify("session/update", params)).catch((err: Error) => this.o.log(`session/update: ${err.message}`));
  }

  private say(text: string): void {
    if (text) this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }

  private frontend(): Frontend {
    return {
      showEvents: (bus, info) => {
        this.id = info.sessionId;
        bus.subscribe((event) => this.show(event));
      },
      warn: (message) => this.o.log(`warning: ${message}`),
      confirm: (request) => this.confirm(request),
    };
  }

  private show(event: ZotEvent): void {
    switch (event.type) {
      case "text_delta":
        return this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } });
      case "thinking_delta":
        return this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta } });
      case "tool_call": {
        const path = toolPath(event.tool_name, event.tool_args, this.rt.cwd);
        if (path && changesFile(event.tool_name)) this.before.set(event.tool_id, this.readText(path));
        return this.send({ sessionUpdate: "tool_call", toolCallId: event.tool_id, title: toolTitle(event.tool_name, event.tool_args),
          kind: toolKind(event.tool_name), status: "pending", rawInput: event.tool_args ?? event.tool_args_raw, locations: path ? [{ path }] : [] });
      }
      case "permission_decision":
        if (event.decision === "approved") this.send({ sessionUpdate: "tool_call_update", toolCallId: event.tool_id, status: "in_progress" });
        return;
      case "tool_progress":
        return this.send({ sessionUpdate: "tool_call_update", toolCallId: event.tool_id, status: "in_progress",
          content: [{ type: "content", content: { type: "text", text: event.text } }] });
      case "tool_result":
        return void this.finishTool(event);
      case "ext_notify":
      case "ext_display":
        return this.say(`[${event.extension}] ${"message" in event ? event.message : event.text}\n`);
      case "ext_panel_open":
        // ACP has no surface for an extension's panel: close it and say so.
        this.rt.panels.close(event.panel_id);
        return this.say(`[${event.extension}] opened a panel${event.title ? ` (${event.title})` : ""}, which the editor cannot show; use zot in a terminal for it\n`);
      case "ext_error":
        return this.o.log(`${event.extension}: ${event.message}${event.log_path ? ` (log: ${event.log_path})` : ""}`);
      default:
        return;
    }
  }

  private finishTool(event: Extract<ZotEvent, { type: "tool_result" }>): void {
    const status: acp.ToolCallStatus = event.status === "completed" ? "completed" : "failed";
    const terminalId = this.terminals.get(event.tool_id);
    this.terminals.delete(event.tool_id);
    const content: acp.ToolCallContent[] = [...(terminalId ? [{ type: "terminal" as const, terminalId }] : []), ...resultContent(event.result.content)];
    const before = this.before.get(event.tool_id);
    this.before.delete(event.tool_id);
    const path = toolPath(event.tool_name, event.tool_args, this.rt.cwd);
    if (!before || !path || status !== "completed") {
      return this.send({ sessionUpdate: "tool_call_update", toolCallId: event.tool_id, status, content });
    }
    // The diff needs the text after the change: read in order with the other updates.
    const after = Promise.all([before, this.readText(path)]);
    this.sent = this.sent.then(async () => {
      const [oldText, newText] = await after;
      const diff: acp.ToolCallContent[] = newText === undefined ? [] : [{ type: "diff", path, oldText: oldText ?? null, newText }];
      await this.o.client.notify("session/update", { sessionId: this.id,
        update: { sessionUpdate: "tool_call_update", toolCallId: event.tool_id, status, content: [...diff, ...content] } });
    }).catch((err: Error) => this.o.log(`session/update: ${err.message}`));
  }

  /** A file's text as the file tools see it (the editor's buffer when it offers fs); undefined when there is none. */
  private async readText(path: string): Promise<string | undefined> {
    try {
      return this.files ? (await this.files.read(path)).toString("utf8") : readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  }

  private async confirm(request: ConfirmRequest): Promise<ConfirmAnswer> {
    if (this.mode === "accept-edits" && FILE_TOOLS.has(request.toolName)) return "yes";
    const path = toolPath(request.toolName, request.toolArgs, this.rt.cwd);
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: request.toolId, title: toolTitle(request.toolName, request.toolArgs), kind: toolKind(request.toolName),
      status: "pending", rawInput: request.toolArgs, locations: path ? [{ path }] : [],
      ...(request.diff ? { content: [{ type: "content", content: { type: "text", text: `\`\`\`diff\n${request.diff}\n\`\`\`` } }] } : {}),
    };
    await this.sent;
    const { outcome } = await this.o.client.request("session/request_permission", {
      sessionId: this.id, toolCall,
      options: [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        { optionId: "allow_always", name: `Always allow ${request.toolName}`, kind: "allow_always" },
        { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ],
    }, { cancellationSignal: request.signal, stopWaitingOnCancel: true });
    if (outcome.outcome === "cancelled") throw new Error("the editor cancelled the permission request");
    return outcome.optionId === "allow_once" ? "yes" : outcome.optionId === "allow_always" ? "always_tool" : "no";
  }
}
