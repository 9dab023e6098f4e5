// The MCP client side of an MCP extension, on @modelcontextprotocol/sdk: initialize, list the
// server's tools, prompts and resources, call tools with progress and cancellation, get prompts,
// and follow list_changed notifications. Loaded on demand: a run without MCP extensions never
// imports the SDK.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { mcpErrorText } from "./error-text.ts";
import {
  ErrorCode, McpError, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema, type Prompt, type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { errorOutcome, type ToolOutcome } from "../../../tools/types.ts";
import { ZOT_VERSION } from "../../../version.ts";
import type { ExtensionProcess } from "../spawn.ts";
import { isHttpConfig, type McpServerConfig } from "../../catalog/manifest-mcp.ts";
import { mapToolResult, type McpToolResult } from "./results.ts";
import { ProcessTransport } from "./stdio-transport.ts";

export interface McpServerInfo {
  name: string;
  version: string;
  tools: McpTool[];
  prompts: Prompt[];
  resources: Array<{ uri: string; name: string }>;
}

export interface McpConnectOptions {
  config: McpServerConfig;
  /** The spawned server, for stdio. */
  process?: ExtensionProcess;
  log(message: string): void;
  /** The server's tools or prompts changed (the lists in `info` are already updated). */
  onListsChanged(): void;
  /** The connection ended (the server closed it, or its process exited). */
  onClosed(): void;
  /** The server broke the connection beyond use (a message over the size limit): why. */
  onFatal(reason: string): void;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (text: string) => void;
}

export interface McpSession {
  readonly info: McpServerInfo;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolOutcome>;
  /** The prompt's messages as one text (what a `prompt` command action submits). */
  getPrompt(name: string, args: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

async function listAll<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  // A bound on pages: a server that always answers with a cursor must not loop forever.
  for (let i = 0; i < 100; i++) {
    const { items, nextCursor } = await page(cursor);
    all.push(...items);
    if (!nextCursor) break;
    cursor = nextCursor;
  }
  return all;
}

function progressText(progress: { progress: number; total?: number; message?: string }): string {
  const count = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${progress.message} (${count})` : count;
}

function messageText(content: Record<string, unknown>): string {
  switch (content.type) {
    case "text":
      return String(content.text ?? "");
    case "resource": {
      const block = mapToolResult({ content: [content] }).content[0];
      return block?.type === "text" ? block.text : "";
    }
    default:
      return `[${String(content.type)} omitted]`;
  }
}

/**
 * A signal of the call's own that follows `parent`. The SDK adds an abort listener to the signal
 * of every request and never removes it: given a long-lived signal (a session's, a serve
 * connection's), those listeners pile up, leak, and make each later call slower.
 */
function ownSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener("abort", abort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener("abort", abort) };
}

export async function connectMcp(options: McpConnectOptions): Promise<McpSession> {
  const { config } = options;
  let transport: Transport;
  /** Why the connection broke, for the calls it fails. */
  let fatal: string | undefined;
  if (isHttpConfig(config)) {
    transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
  } else {
    transport = new ProcessTransport(options.process!, options.log, (reason) => {
      fatal ??= reason;
      options.onFatal(reason);
    });
  }
  const client = new Client({ name: "zot", version: ZOT_VERSION }, { capabilities: {} });
  client.onclose = () => options.onClosed();
  client.onerror = (err) => options.log(`MCP: ${err.message}`);
  await client.connect(transport);
  const capabilities = client.getServerCapabilities() ?? {};
  const server = client.getServerVersion();
  const listTools = () => capabilities.tools
    ? listAll((cursor) => client.listTools(cursor ? { cursor } : undefined).then((r) => ({ items: r.tools, nextCursor: r.nextCursor })))
    : Promise.resolve([]);
  const listPrompts = () => capabilities.prompts
    ? listAll((cursor) => client.listPrompts(cursor ? { cursor } : undefined).then((r) => ({ items: r.prompts, nextCursor: r.nextCursor })))
    : Promise.resolve([]);
  const listResources = () => capabilities.resources
    ? listAll((cursor) => client.listResources(cursor ? { cursor } : undefined)
      .then((r) => ({ items: r.resources.map((x) => ({ uri: x.uri, name: x.name })), nextCursor: r.nextCursor })))
    : Promise.resolve([]);
  const [tools, prompts, resources] = await Promise.all([listTools(), listPrompts(), listResources()]);
  const info: McpServerInfo = { name: server?.name ?? "", version: server?.version ?? "", tools, prompts, resources };
  const refresh = (what: string, update: () => Promise<void>) => () =>
    update().then(options.onListsChanged, (err: Error) => options.log(`MCP: re-listing ${what} after list_changed failed: ${err.message}`));
  client.setNotificationHandler(ToolListChangedNotificationSchema, refresh("tools", async () => {
    info.tools = await listTools();
  }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, refresh("prompts", async () => {
    info.prompts = await listPrompts();
  }));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, refresh("resources", async () => {
    info.resources = await listResources();
  }));

  return {
    info,
    async callTool(name, args, call) {
      const own = ownSignal(call.signal);
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, {
          signal: own.signal,
          timeout: call.timeoutMs,
          ...(call.onProgress ? { onprogress: (p) => call.onProgress!(progressText(p)) } : {}),
        });
        return mapToolResult(result as McpToolResult);
      } catch (err) {
        // The SDK has sent notifications/cancelled for an aborted or timed-out call.
        if (call.signal.aborted) return errorOutcome(`MCP tool ${name} was cancelled`, "cancelled");
        if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
          return errorOutcome(`MCP tool ${name} did not answer within ${call.timeoutMs} ms; zot cancelled it`, "timed_out");
        }
        if (fatal) return errorOutcome(`MCP tool ${name} failed: the server ${fatal}; it was disconnected`);
        return errorOutcome(`MCP tool ${name} failed: ${mcpErrorText(err)}`);
      } finally {
        own.release();
      }
    },
    async getPrompt(name, args) {
      const result = await client.getPrompt({ name, arguments: args });
      return result.messages.map((m) => messageText(m.content as Record<string, unknown>)).filter(Boolean).join("\n\n");
    },
    async close() {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
    },
  };
}
