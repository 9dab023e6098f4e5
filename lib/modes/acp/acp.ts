// `zot acp`: the Agent Client Protocol over stdio, so an editor (Zed, JetBrains, Neovim, Emacs)
// drives zot. Built on the protocol's own SDK: it parses and validates every message and turns a
// thrown error into a JSON-RPC error. Each session is a zot runtime of its own (acp-session.ts).
// stdout carries protocol messages only; diagnostics go to stderr and zot's log.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { RunConfigInput } from "../../app/run-config.ts";
import { listSessions } from "../../agent/session/session-select.ts";
import { appendHostLog } from "../../host-log.ts";
import { zotPaths } from "../../paths.ts";
import { printable } from "../../terminal-text.ts";
import { ZOT_VERSION } from "../../version.ts";
import { AcpSession } from "./acp-session.ts";

export interface AcpIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export async function runAcp(config: RunConfigInput, env: Record<string, string | undefined>,
  io: AcpIo = { input: process.stdin, output: process.stdout }): Promise<number> {
  const paths = zotPaths(env);
  const log = (line: string) => {
    process.stderr.write(`zot acp: ${printable(line)}\n`);
    appendHostLog(paths, `acp: ${line}`);
  };
  const sessions = new Map<string, AcpSession>();
  let clientCapabilities: acp.ClientCapabilities | undefined;
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };
  const open = async (client: acp.AgentContext, params: acp.NewSessionRequest, resumeId?: string) => {
    const session = await AcpSession.open({ client, clientCapabilities, config, env, cwd: params.cwd, mcpServers: params.mcpServers, log,
      ...(resumeId ? { resumeId } : {}) });
    sessions.set(session.id, session);
    return session;
  };

  const app = acp.agent({ name: "zot" })
    .onRequest("initialize", ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "zot", title: "zot", version: ZOT_VERSION },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true, audio: false },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, close: {} },
        },
        authMethods: [
          { id: "environment", name: "API key in the environment", description: "Set your provider's variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, …) where the editor starts zot" },
          { id: "saved-key", name: "Saved key", description: "A key saved with zot login" },
          { type: "terminal", id: "zot-login", name: "Log in with zot login", description: "Runs zot login in a terminal", args: ["login"] },
        ],
      };
    })
    // zot resolves the key at each request (environment, then the saved key): nothing to do here.
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", async ({ params, client }) => {
      const session = await open(client, params);
      return { sessionId: session.id, ...session.state() };
    })
    .onRequest("session/load", async ({ params, client }) => {
      if (sessions.has(params.sessionId)) throw acp.RequestError.invalidParams(undefined, `session ${params.sessionId} is already open`);
      const known = listSessions({ sessionsDir: paths.sessions, cwd: params.cwd }).some((s) => s.id === params.sessionId);
      if (!known) throw acp.RequestError.resourceNotFound(params.sessionId);
      return (await open(client, params, params.sessionId)).state();
    })
    .onRequest("session/list", ({ params }) => {
      const cwd = params.cwd ?? process.cwd();
      return { sessions: listSessions({ sessionsDir: paths.sessions, cwd }).map((s) => ({ sessionId: s.id, cwd, updatedAt: s.modified.toISOString() })) };
    })
    .onRequest("session/prompt", async ({ params }) => ({ stopReason: await find(params.sessionId).prompt(params.prompt) }))
    .onNotification("session/cancel", ({ params }) => sessions.get(params.sessionId)?.cancel())
    .onRequest("session/set_mode", ({ params }) => {
      find(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest("session/set_config_option", async ({ params }) => ({ configOptions: await find(params.sessionId).setConfig(params.configId, params.value) }))
    .onRequest("session/close", async ({ params }) => {
      const session = find(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    });

  const stream = acp.ndJsonStream(Writable.toWeb(io.output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.input as Readable) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  // The editor closed its end (or went away): every session stops its work and is saved as it is.
  await connection.closed;
  await Promise.all([...sessions.values()].map((s) => s.close().catch((err: Error) => log(`closing session ${s.id}: ${err.message}`))));
  return 0;
}
