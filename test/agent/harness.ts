// Test harness for the agent: a scripted model server on loopback, a real provider talking to it
// over HTTP, real built-in tools in a temp project, and a recorder for every bus event.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentSession } from "../../lib/agent/session/agent-session.ts";
import type { AgentSessionOptions } from "../../lib/agent/session/agent-options.ts";
import { EventBus } from "../../lib/agent/event-bus.ts";
import type { ZotEvent } from "../../lib/events/index.ts";
import { eventStream } from "../../lib/modes/event-stream.ts";
import { createProvider } from "../../lib/providers/index.ts";
import type { ProviderName } from "../../lib/providers/models.ts";
import type { RetryOptions } from "../../lib/providers/retry.ts";
import { startModelServer, type ModelServer, type Turn } from "../support/model-server.ts";

export interface Harness {
  server: ModelServer;
  /** The project folder the agent and its tools work in. */
  cwd: string;
  /** $ZOT_HOME for this test. */
  home: string;
  bus: EventBus;
  events: ZotEvent[];
  /** The lifecycle events extension `event` frames are made from (without client-only ones). */
  extensionEvents: ZotEvent[];
  /** The same events as json/rpc modes write them (the Go zot's fields added), parsed back. */
  clientLines: Array<Record<string, any>>;
  session: AgentSession;
  /** A second session on the same server, bus and folders (e.g. to reload a session). */
  newSession(options?: Partial<AgentSessionOptions>): AgentSession;
  /** Event types in order, optionally only those passing `keep`. */
  types(keep?: (event: ZotEvent) => boolean): string[];
  ofType<T extends ZotEvent["type"]>(type: T): Extract<ZotEvent, { type: T }>[];
  clientLinesOf(type: string): Array<Record<string, any>>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<AgentSessionOptions> {
  wire?: ProviderName;
  /** Provider retries (default none, so scripted failures end the run at once). */
  retry?: RetryOptions;
}

export async function startHarness(script: Turn[], options: HarnessOptions = {}): Promise<Harness> {
  const server = await startModelServer(script);
  const root = mkdtempSync(join(tmpdir(), "zot-agent-"));
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const bus = new EventBus({ id: "pending", cwd });
  const events: ZotEvent[] = [];
  const extensionEvents: ZotEvent[] = [];
  const clientLines: Array<Record<string, any>> = [];
  const clientStream = eventStream({ write: (line) => void clientLines.push(JSON.parse(JSON.stringify(line))) });
  bus.subscribe((event, delivery) => {
    events.push(event);
    if (delivery.extensions && "sequence" in event) extensionEvents.push(event);
    clientStream.event(event);
  });
  const wire = options.wire ?? "anthropic";
  const { wire: _wire, retry = { maxRetries: 0 }, ...rest } = options;
  const make = (more: Partial<AgentSessionOptions> = {}) =>
    new AgentSession({
      cwd,
      provider: createProvider({ provider: wire, baseUrl: wire === "openai" ? `${server.url}/v1` : server.url, retry }),
      model: wire === "openai" ? "gpt-4.1" : "claude-sonnet-4-6",
      bus,
      ...rest,
      ...more,
    });
  const session = make();
  return {
    server,
    cwd,
    home,
    bus,
    events,
    extensionEvents,
    clientLines,
    session,
    newSession: make,
    types: (keep) => events.filter((e) => !keep || keep(e)).map((e) => e.type),
    ofType: <T extends ZotEvent["type"]>(type: T) => events.filter((e) => e.type === type) as Extract<ZotEvent, { type: T }>[],
    clientLinesOf: (type) => clientLines.filter((line) => line.type === type),
    close: async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Lifecycle events and `done`, without streaming noise (deltas, usage, progress) and the
 * json/rpc client stream's own markers (user_message, assistant_start, tool_use_*).
 */
export function milestones(event: ZotEvent): boolean {
  return !["text_delta", "thinking_delta", "usage", "tool_progress", "user_message", "assistant_start",
    "tool_use_start", "tool_use_args", "tool_use_end"].includes(event.type);
}

/** The text of every tool_result block the model received in a recorded Anthropic request. */
export function toolResultsSent(body: any): { tool_use_id: string; text: string; is_error: boolean }[] {
  const out: { tool_use_id: string; text: string; is_error: boolean }[] = [];
  for (const message of body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const text = (block.content ?? []).filter((c: any) => c.type === "text").map((c: any) => c.text).join("\n");
      out.push({ tool_use_id: block.tool_use_id, text, is_error: block.is_error === true });
    }
  }
  return out;
}

/** The system prompt text of a recorded Anthropic request. */
export function systemSent(body: any): string {
  const system = body?.system;
  if (typeof system === "string") return system;
  return (system ?? []).map((b: any) => b.text).join("");
}

/** Polls `check` until it holds; fails naming `what` at the deadline. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
