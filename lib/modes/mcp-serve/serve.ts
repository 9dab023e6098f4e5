// `zot mcp serve`: zot as an MCP server on stdio. The run is built by the composition root like
// any other (extensions started, attached to the session), but no model is asked: each
// tools/call goes through the session's runTool — interceptors, jail, permission rules, and
// the tool_call / permission_decision / tool_result events subscribed extensions receive.
// stdout carries only MCP messages; warnings, extension notes and errors go to stderr. The
// server ends when stdin closes (or on SIGINT/SIGTERM), after every extension has stopped.
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { createRuntime, type Runtime } from "../../app/runtime.ts";
import type { RunConfigInput } from "../../app/run-config.ts";
import { UsageError } from "../../errors.ts";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";
import { randomHex } from "../../random-id.ts";
import type { Tool } from "../../tools/types.ts";
import { ZOT_VERSION } from "../../version.ts";
import { stderrNoteLine } from "../notes.ts";
import { CONFIRM_SCHEMA, elicitingConfirmer } from "./serve-confirm.ts";
import { mcpContentOf, mcpToolOf, offeredTools, toolListSignature, unmatchedToolNames, type ServeToolSelection } from "./serve-tools.ts";

export interface ServeOptions {
  /** The run: cwd, extensions, built-in selection, jail, yolo, skills. Sessions are never saved. */
  config: RunConfigInput;
  selection: ServeToolSelection;
  env?: Record<string, string | undefined>;
  /** The client's side of the pipe (default: the process's stdin and stdout). */
  input?: Readable;
  output?: Writable;
  /** Where warnings, extension notes and errors go, one line each (default: stderr). */
  log?(line: string): void;
  /** How often the offered tool list is compared for `list_changed` besides after each event (ms). */
  listCheckMs?: number;
}

const DEFAULT_LIST_CHECK_MS = 1000;

/** Serves until the client goes away; resolves with the exit code. Throws UsageError for bad flags. */
export async function serveMcp(options: ServeOptions): Promise<number> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const server = new Server(
    { name: "zot", version: ZOT_VERSION },
    { capabilities: { tools: { listChanged: true } } },
  );
  const runtime = await createRuntime(
    { ...options.config, session: { kind: "none" }, rememberModel: false },
    {
      frontend: {
        warn: (message) => log(`zot: warning: ${message}`),
        // From before the extensions start, so a load failure is said on stderr, as in print mode.
        showEvents: (bus) => bus.subscribe((event) => {
          const line = stderrNoteLine(event);
          if (line) log(line);
        }),
        // The MCP client is asked (an elicitation) when it can answer one.
        confirm: elicitingConfirmer({
          canElicit: () => Boolean(server.getClientCapabilities()?.elicitation?.form),
          elicit: (message, signal) => server.elicitInput({ message, requestedSchema: CONFIRM_SCHEMA }, { signal }),
        }),
      },
      ...(options.env ? { env: options.env } : {}),
      interactive: false,
      withoutModel: true,
    },
  );
  const unmatched = unmatchedToolNames(runtime.session.tools(), options.selection);
  if (unmatched.length > 0) {
    const extensionTools = offeredTools(runtime.session.tools(), { ...options.selection, only: undefined, builtins: false }).map((t) => t.name);
    await runtime.close();
    const builtins = options.selection.builtins ? `built-in tools: ${BUILTIN_TOOL_NAMES.join(", ")}; ` : "";
    throw new UsageError(`unknown tool ${unmatched.join(", ")} in --tools (${builtins}extension tools: ${extensionTools.join(", ") || "none"})`);
  }
  runtime.session.start();
  const serving = new ToolServer(server, runtime, options.selection);
  await server.connect(new StdioServerTransport(input, output));
  await untilClosed(server, input, output, options.listCheckMs ?? DEFAULT_LIST_CHECK_MS, () => serving.announceChanges());
  await serving.close();
  return 0;
}

/** The tools/list and tools/call handlers over one runtime, with progress and list_changed. */
class ToolServer {
  private readonly progress = new Map<string, (text: string) => void>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private announced: string;
  /** The offered tools as announceChanges last saw them. */
  private lastChecked: Array<{ tool: Tool; description: string }> = [];
  private readonly unsubscribe: () => void;

  constructor(private readonly server: Server, private readonly runtime: Runtime, private readonly selection: ServeToolSelection) {
    this.announced = toolListSignature(this.offered());
    this.unsubscribe = runtime.bus.subscribe((event) => {
      if (event.type === "tool_progress") this.progress.get(event.tool_id)?.(event.text);
      else if (event.type === "tool_result" || event.type.startsWith("ext_")) this.announceChanges();
    });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      const tools = this.offered();
      this.announced = toolListSignature(tools);
      this.unchangedSinceChecked(tools);
      return { tools: tools.map(mcpToolOf) };
    });
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = this.call(request.params.name, request.params.arguments ?? {}, extra.signal,
        request.params._meta?.progressToken, (params) => extra.sendNotification({ method: "notifications/progress", params }));
      this.inFlight.add(call);
      void call.finally(() => this.inFlight.delete(call)).catch(() => undefined);
      return call;
    });
  }

  private offered() {
    return offeredTools(this.runtime.session.tools(), this.selection);
  }

  private async call(name: string, args: Record<string, unknown>, signal: AbortSignal, progressToken: string | number | undefined,
    notify: (params: { progressToken: string | number; progress: number; message: string }) => Promise<void>): Promise<CallToolResult> {
    if (!this.offered().some((t) => t.name === name)) {
      const names = this.offered().map((t) => t.name);
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${name}" (offered: ${names.join(", ") || "none"})`);
    }
    const toolId = `mcp_${randomHex(8)}`;
    // The response waits for its progress notifications: one sent after it would name a request
    // the client has already finished with.
    const notified: Array<Promise<void>> = [];
    if (progressToken !== undefined) {
      let count = 0;
      this.progress.set(toolId, (message) => void notified.push(notify({ progressToken, progress: ++count, message }).catch(() => undefined)));
    }
    try {
      const result = await this.runtime.session.runTool(name, args, { toolId, signal });
      await Promise.all(notified);
      // The SDK's client dispatches notifications a microtask late but handles a response at
      // once: a response read in the same chunk as the last progress would drop it as "unknown
      // token". Sending the response a macrotask later lets the notifications go out first.
      if (notified.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      return { content: mcpContentOf(result.content), isError: result.isError };
    } finally {
      this.progress.delete(toolId);
    }
  }

  /** Sends `notifications/tools/list_changed` when the offered tools differ from the last list. */
  announceChanges(): void {
    const tools = this.offered();
    // Every call's tool_result asks: the same tools with the same descriptions need no signature.
    if (this.unchangedSinceChecked(tools)) return;
    const now = toolListSignature(tools);
    if (now === this.announced) return;
    this.announced = now;
    void this.server.sendToolListChanged().catch(() => undefined);
  }

  private unchangedSinceChecked(tools: Tool[]): boolean {
    const last = this.lastChecked;
    const same = tools.length === last.length && tools.every((t, i) => t === last[i]!.tool && t.description === last[i]!.description);
    if (!same) this.lastChecked = tools.map((tool) => ({ tool, description: tool.description }));
    return same;
  }

  /** Lets aborted calls settle, then ends the session and stops every extension. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.unsubscribe();
    await this.runtime.close({ abort: true });
  }
}

/**
 * Resolves once the client is gone (stdin ended, stdout's reader left, or the transport closed) or
 * a signal asks to stop.
 */
async function untilClosed(server: Server, input: Readable, output: NodeJS.WritableStream, checkMs: number,
  check: () => void): Promise<void> {
  const timer = setInterval(check, checkMs);
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.on(s, stop);
  input.once("end", stop);
  input.once("close", stop);
  // A write into a pipe nobody reads fails (EPIPE): the client is gone. Kept for good, so a
  // write during shutdown cannot crash zot either.
  output.on("error", stop);
  server.onclose = stop;
  try {
    await stopped;
  } finally {
    clearInterval(timer);
    for (const s of signals) process.off(s, stop);
    // Closing the server aborts the handlers of calls still running (their signals fire).
    await server.close().catch(() => undefined);
  }
}
