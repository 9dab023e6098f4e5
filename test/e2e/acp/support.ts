// An editor for `zot acp` tests: the Agent Client Protocol SDK's own client, connected to a real
// zot process's stdio. It records every session/update, answers permission requests as the test
// says, and (when asked to offer fs) serves reads and writes from an in-memory buffer table.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { ZOT, type World } from "../support.ts";

export interface Editor {
  child: ChildProcess;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  /** Every session/update, in arrival order. */
  updates: acp.SessionNotification[];
  /** What the editor was asked to allow, in order. */
  permissions: acp.RequestPermissionRequest[];
  /** The answer to the next permission requests: an option id, "cancelled", or "hang" (none until withdrawn). */
  answer: string;
  /** The editor's open buffers, by absolute path (with fs offered). */
  buffers: Map<string, string>;
  /** The terminals zot created (with terminal offered): each a real process the editor runs. */
  terminals: Map<string, EditorTerminal>;
  stderr(): string;
  initialize(capabilities?: acp.ClientCapabilities): Promise<acp.InitializeResponse>;
  /** Resolves once an update matching `pred` has arrived. */
  waitFor(pred: (u: acp.SessionUpdate) => boolean): Promise<acp.SessionUpdate>;
  /** Resolves once zot has asked for `count` permissions. */
  asked(count: number): Promise<void>;
  /** Closes zot's stdin and waits for it to exit. */
  close(): Promise<number | null>;
}

export interface EditorTerminal {
  request: acp.CreateTerminalRequest;
  process: ChildProcess;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  killed: boolean;
  released: boolean;
}

export interface EditorOptions {
  args?: string[];
  /** The program that runs zot: node on the bundle, or a compiled binary. */
  command?: string[];
}

export function startEditor(world: World, options: EditorOptions = {}): Editor {
  const command = options.command ?? [process.execPath, ZOT];
  const child = spawn(command[0]!, [...command.slice(1), "acp", ...(options.args ?? [])], { cwd: world.cwd, env: world.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const waiters: Array<() => void> = [];
  const editor: Editor = {
    child, updates: [], permissions: [], answer: "allow_once", buffers: new Map(), terminals: new Map(),
    stderr: () => stderr,
    agent: undefined as unknown as acp.ClientContext,
    connection: undefined as unknown as acp.ClientConnection,
    initialize: (capabilities = {}) => editor.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities }),
    async waitFor(pred) {
      for (;;) {
        const found = editor.updates.find((n) => pred(n.update));
        if (found) return found.update;
        if (child.exitCode !== null) throw new Error(`zot exited: ${stderr}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async asked(count) {
      while (editor.permissions.length < count) {
        if (child.exitCode !== null) throw new Error(`zot exited: ${stderr}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async close() {
      child.stdin!.end();
      return exited;
    },
  };
  const app = acp.client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      editor.updates.push(params);
      for (const w of waiters.splice(0)) w();
    })
    .onRequest("session/request_permission", async ({ params, signal }) => {
      editor.permissions.push(params);
      for (const w of waiters.splice(0)) w();
      // "hang": no answer until zot withdraws the question.
      if (editor.answer === "hang") await new Promise((gone) => signal.addEventListener("abort", gone));
      return { outcome: editor.answer === "cancelled" || editor.answer === "hang" ? { outcome: "cancelled" } : { outcome: "selected", optionId: editor.answer } };
    })
    .onRequest("fs/read_text_file", ({ params }) => {
      const content = editor.buffers.get(params.path);
      if (content === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      editor.buffers.set(params.path, params.content);
      return {};
    })
    // Terminals as an editor runs them: a real process per terminal/create, its output kept.
    .onRequest("terminal/create", ({ params }) => {
      const id = `term-${editor.terminals.size + 1}`;
      const env = { ...process.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) };
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      const terminal: EditorTerminal = { request: params, process: proc, output: "", killed: false, released: false };
      for (const stream of [proc.stdout!, proc.stderr!]) stream.on("data", (d) => (terminal.output += d));
      proc.on("close", (code, signal) => (terminal.exit = { exitCode: code, signal }));
      editor.terminals.set(id, terminal);
      return { terminalId: id };
    })
    .onRequest("terminal/output", ({ params }) => {
      const t = editor.terminals.get(params.terminalId)!;
      return { output: t.output, truncated: false, ...(t.exit ? { exitStatus: t.exit } : {}) };
    })
    .onRequest("terminal/wait_for_exit", async ({ params }) => {
      const t = editor.terminals.get(params.terminalId)!;
      if (!t.exit) await new Promise((r) => t.process.on("close", r));
      return t.exit!;
    })
    .onRequest("terminal/kill", ({ params }) => {
      const t = editor.terminals.get(params.terminalId)!;
      t.killed = true;
      try {
        process.kill(-t.process.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      return {};
    })
    .onRequest("terminal/release", ({ params }) => {
      editor.terminals.get(params.terminalId)!.released = true;
      return {};
    });
  editor.connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  editor.agent = editor.connection.agent;
  child.on("close", () => {
    for (const w of waiters.splice(0)) w();
  });
  return editor;
}

/** The text of the agent_message_chunk updates of `sessionId`, joined. */
export function agentText(editor: Editor, sessionId: string): string {
  return editor.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk")
    .map((n) => (n.update as { content: { type: string; text?: string } }).content.text ?? "").join("");
}

/** The updates of `sessionId` about one tool call, in order. */
export function toolUpdates(editor: Editor, sessionId: string, toolCallId: string): acp.SessionUpdate[] {
  return editor.updates.filter((n) => n.sessionId === sessionId && "toolCallId" in n.update && n.update.toolCallId === toolCallId).map((n) => n.update);
}
